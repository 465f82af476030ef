import type { FactoryProvider } from '@nestjs/common';
import { type Config, type ConfigFields, defineConfig, loadConfig } from '@sprout/platform';

/**
 * A feature module's own settings: its injection token, and the provider that reads them from the
 * environment once, when the module starts, so a wrong value stops the start naming the variable.
 */
export const moduleConfig = <F extends ConfigFields>(name: string, fields: F) => {
  const token = Symbol(`sprout:${name}-config`);
  const definition = defineConfig(fields);
  const provider: FactoryProvider<Config<F>> = {
    provide: token,
    useFactory: () => loadConfig(definition, process.env),
  };
  return { token, provider };
};

/** The settings a moduleConfig provides. */
export type ModuleConfigOf<M> = M extends { provider: FactoryProvider<infer C> } ? C : never;
