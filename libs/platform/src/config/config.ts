import { z } from 'zod';

/**
 * One configuration value: the environment variable it comes from and the zod schema that turns
 * the raw string (or undefined) into its typed value. Schema issue messages are phrased to follow
 * the variable name: "PORT" + " must be a number between 1 and 65535".
 */
export interface ConfigField<T = unknown> {
  env: string;
  schema: z.ZodType<T, string | undefined>;
  /** Never echo the raw value in error messages. */
  secret?: boolean;
  /** With NODE_ENV=production the variable must be set explicitly (its default is for local runs). */
  requiredInProduction?: boolean;
}

export type ConfigFields = Record<string, ConfigField>;

export interface ConfigDefinition<F extends ConfigFields> {
  readonly fields: F;
}

/** The typed, frozen configuration a definition produces. */
export type Config<F extends ConfigFields> = {
  readonly [K in keyof F]: F[K] extends ConfigField<infer T> ? T : never;
};

/** The configuration type of a definition: `type SmsGatewayConfig = ConfigOf<typeof smsGatewayConfig>`. */
export type ConfigOf<D> = D extends ConfigDefinition<infer F> ? Config<F> : never;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export const field = <T>(
  env: string,
  schema: z.ZodType<T, string | undefined>,
  options: { secret?: boolean; requiredInProduction?: boolean } = {},
): ConfigField<T> => ({ env, schema, ...options });

/** Declares a service's configuration as named fields, usually spread from `configFields`. */
export const defineConfig = <F extends ConfigFields>(fields: F): ConfigDefinition<F> => ({ fields });

type Env = Record<string, string | undefined>;

const describeRaw = (fieldDef: ConfigField, raw: string | undefined): string => {
  if (raw === undefined) return 'not set';
  if (fieldDef.secret) return `got a value of ${raw.length} characters`;
  return `got ${JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}...` : raw)}`;
};

/**
 * Validates the environment once. Empty strings count as unset, so `FOO=` falls back to the
 * default. `overrides` (typed values, e.g. from a test) replace parsed values after validation.
 * Throws a ConfigError naming every bad variable.
 */
export const loadConfig = <F extends ConfigFields>(
  definition: ConfigDefinition<F>,
  env: Env = process.env,
  overrides: Partial<Config<F>> = {},
): Config<F> => {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  const production = env.NODE_ENV === 'production';

  for (const [key, fieldDef] of Object.entries(definition.fields)) {
    if (Object.prototype.hasOwnProperty.call(overrides, key)) {
      values[key] = (overrides as Record<string, unknown>)[key];
      continue;
    }
    const rawValue = env[fieldDef.env];
    const raw = rawValue === undefined || rawValue.trim() === '' ? undefined : rawValue;
    if (raw === undefined && production && fieldDef.requiredInProduction) {
      problems.push(`${fieldDef.env} must be set when NODE_ENV is production`);
      continue;
    }
    const result = fieldDef.schema.safeParse(raw);
    if (result.success) {
      values[key] = result.data;
    } else {
      const message = result.error.issues.map((issue) => issue.message).join(', ');
      problems.push(`${fieldDef.env} ${message} (${describeRaw(fieldDef, raw)})`);
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(values) as Config<F>;
};

/** For main.ts: on a configuration error print the one-line message and exit 1 (no stack trace). */
export const loadConfigOrExit = <F extends ConfigFields>(
  definition: ConfigDefinition<F>,
  env: Env = process.env,
): Config<F> => {
  try {
    return loadConfig(definition, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
};
