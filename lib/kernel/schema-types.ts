/**
 * The TypeScript type of a (small) JSON Schema, at the type level: how lib/kernel/events.ts and lib/kernel/trace.ts
 * derive their types from the tables the schemas are generated from, so neither can drift from its schema.
 */

/** A type's fields flattened, for readable hovers. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The TypeScript type of a JSON value its (small) JSON Schema describes. */
export type JsonOf<S> = S extends { readonly enum: readonly (infer E)[] }
  ? E
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly type: 'string' }
      ? string
      : S extends { readonly type: 'integer' | 'number' }
        ? number
        : S extends { readonly type: 'boolean' }
          ? boolean
          : S extends { readonly type: 'array'; readonly items: infer I }
            ? JsonOf<I>[]
            : S extends {
                  readonly type: 'object';
                  readonly properties: infer P;
                  readonly required: readonly (infer R)[];
                }
              ? Simplify<
                  // Keys remapped with `as` keep the mapped type homomorphic, so each field keeps its doc comment.
                  { -readonly [K in keyof P as K extends R ? K : never]: JsonOf<P[K]> } & {
                    -readonly [K in keyof P as K extends R ? never : K]?: JsonOf<P[K]>;
                  }
                >
              : S extends { readonly type: 'object'; readonly properties: infer P }
                ? { -readonly [K in keyof P]?: JsonOf<P[K]> }
                : S extends { readonly type: 'object'; readonly additionalProperties: infer V }
                  ? Record<string, JsonOf<V>>
                  : unknown;

/** A contract row's fields: the required ones, then the optional ones. */
export type Fields<Row extends { required: object; optional: object }> = {
  -readonly [K in keyof Row['required']]: JsonOf<Row['required'][K]>;
} & {
  -readonly [K in keyof Row['optional']]?: JsonOf<Row['optional'][K]>;
};
