import type { ValueTransformer } from 'typeorm';

/** pg returns numeric as string (to keep precision); money values here fit a JS number comfortably. */
export const numericTransformer: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null): number | null => (value === null ? null : Number(value)),
};
