import { Transform } from 'node:stream';

/** Where a stage sends what it produces, in order. */
export type Sink<T> = (item: T) => void;

/**
 * A pipeline stage without the stream machinery: it receives items one by one and sends its
 * output to the sink it was built with. Stages are plain objects so they can be fused into one
 * Transform (src/runtime/normalizer.ts) or wrapped one by one (`toTransform`) for `stream.pipeline`.
 * A stage throws only for a programming error or a `strict` schema violation.
 */
export interface Stage<In> {
  write(item: In): void;
  /** End of input: send whatever is still held. */
  end(): void;
}

export type StageFactory<In, Out> = (sink: Sink<Out>) => Stage<In>;

export interface TransformOptions {
  /** The writable side takes bytes (Buffers or strings) rather than objects. */
  bytesIn?: boolean;
  /** The readable side gives bytes rather than objects. */
  bytesOut?: boolean;
}

/**
 * Wraps a stage as a Node Transform (`node:stream`'s own class, so `instanceof Transform` and
 * `stream.isReadable` hold), so it can sit in `stream.pipeline`.
 */
export function toTransform<In, Out>(factory: StageFactory<In, Out>, options: TransformOptions = {}): Transform {
  const stream = new Transform({
    writableObjectMode: !options.bytesIn,
    readableObjectMode: !options.bytesOut,
    transform(chunk: In, _encoding, done) {
      try {
        stage.write(chunk);
      } catch (error) {
        return done(error as Error);
      }
      done();
    },
    flush(done) {
      try {
        stage.end();
      } catch (error) {
        return done(error as Error);
      }
      done();
    },
  });
  // Built after the stream it pushes to; the stream calls it only once it is written to.
  const stage = factory((item) => {
    stream.push(item);
  });
  return stream;
}

/** Two stages as one: the first's output is the second's input, with no stream between them. */
export function fuse<A, B, C>(first: StageFactory<A, B>, second: StageFactory<B, C>): StageFactory<A, C> {
  return (sink) => {
    const downstream = second(sink);
    const upstream = first((item) => downstream.write(item));
    return {
      write: (item) => upstream.write(item),
      end() {
        upstream.end();
        downstream.end();
      },
    };
  };
}
