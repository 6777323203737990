/** The Standard Schema v1 interface (https://standardschema.dev), as zod, valibot and arktype implement it. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** A validation outcome: a value, or issues. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined }> };

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value;
}
