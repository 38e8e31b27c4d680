import { Transform } from 'node:stream';

/** Where a stage sends what it produces, in order. */
export type Sink<T> = (item: T) => void;

/**
 * A pipeline stage without the stream machinery: it receives items one by one and sends its
 * output to the sink it was built with. Stages are plain objects so they can be fused into one
 * Transform (lib/runtime/normalizer.ts) or wrapped one by one (`toTransform`) for `stream.pipeline`.
 * A stage throws only for a programming error or a `strict` schema violation.
 */
export interface Stage<In> {
  /** Takes one item; what it gives goes to the sink at once. */
  write(item: In): void;
  /** End of input: send whatever is still held. */
  end(): void;
}

/** Builds a stage that sends to `sink`: what `compose` joins and `toTransform` wraps. */
export type StageFactory<In, Out> = (sink: Sink<Out>) => Stage<In>;

interface TransformOptions {
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

/**
 * Stages as one: each one's output is the next one's input, by function call, with no stream
 * between them. Every stage ends in order, the first first, so what one sends at its end still
 * passes through the ones after it.
 */
export function compose<A, B>(a: StageFactory<A, B>): StageFactory<A, B>;
export function compose<A, B, C>(a: StageFactory<A, B>, b: StageFactory<B, C>): StageFactory<A, C>;
export function compose<A, B, C, D>(
  a: StageFactory<A, B>,
  b: StageFactory<B, C>,
  c: StageFactory<C, D>,
): StageFactory<A, D>;
export function compose<A, B, C, D, E>(
  a: StageFactory<A, B>,
  b: StageFactory<B, C>,
  c: StageFactory<C, D>,
  d: StageFactory<D, E>,
): StageFactory<A, E>;
export function compose<A, B, C, D, E, F>(
  a: StageFactory<A, B>,
  b: StageFactory<B, C>,
  c: StageFactory<C, D>,
  d: StageFactory<D, E>,
  e: StageFactory<E, F>,
): StageFactory<A, F>;
export function compose(...factories: StageFactory<unknown, unknown>[]): StageFactory<unknown, unknown>;
export function compose(...factories: StageFactory<unknown, unknown>[]): StageFactory<unknown, unknown> {
  return (sink) => {
    // Built last first: each stage needs the one after it to send to.
    const stages: Stage<unknown>[] = [];
    let next: Sink<unknown> = sink;
    for (let i = factories.length - 1; i >= 0; i--) {
      const stage = factories[i]!(next);
      stages.unshift(stage);
      next = (item) => stage.write(item);
    }
    const first = stages[0]!;
    return {
      write: (item) => first.write(item),
      end() {
        for (const stage of stages) stage.end();
      },
    };
  };
}

/**
 * A stage as the library exports it, under one name: called with its options, a Transform for
 * `stream.pipeline`; its `stage(options)`, the same stage without the stream, for `compose`.
 */
export type StageDefinition<Args extends unknown[], In, Out> = ((...args: Args) => Transform) & {
  /** The same stage as a factory for `compose`, without the stream around it. */
  stage(...args: Args): StageFactory<In, Out>;
};

export function defineStage<Args extends unknown[], In, Out>(
  make: (sink: Sink<Out>, ...args: Args) => Stage<In>,
  transform: TransformOptions = {},
): StageDefinition<Args, In, Out> {
  const stage =
    (...args: Args): StageFactory<In, Out> =>
    (sink) =>
      make(sink, ...args);
  return Object.assign((...args: Args) => toTransform(stage(...args), transform), { stage });
}
