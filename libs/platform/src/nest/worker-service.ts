import { type DynamicModule, Module, type Type } from '@nestjs/common';
import {
  type Config,
  type ConfigDefinition,
  type ConfigField,
  loadConfig,
  loadConfigOrExit,
} from '../config/config';
import type { coreConfigFields } from '../config/fields';
import { bootstrapService, createServiceApp, type ServiceApp } from './bootstrap';
import type { CoreConfig, PlatformModuleOptions } from './platform-options';
import { PlatformModule } from './platform.module';

type WorkerConfigFields = typeof coreConfigFields & { port: ConfigField<number> };

export interface WorkerServiceOptions<F extends WorkerConfigFields> {
  /** Service name: logs, metrics label, Postgres application_name. */
  name: string;
  /** The service's configuration definition (spreads `coreConfigFields`). */
  config: ConfigDefinition<F>;
  /** The queues the service consumes, with their concurrency and rate limits. */
  workers: (config: Config<F>) => NonNullable<PlatformModuleOptions['workers']>;
  /** The service's own modules, imported after PlatformModule. */
  imports: Type[];
}

export interface WorkerService<C> {
  /**
   * The service, initialised (workers running) and listening on `port` (tests pass overrides such
   * as their own database, Redis prefix, port 0 and fake servers' URLs).
   */
  createApp: (
    overrides?: Partial<C>,
    env?: Record<string, string | undefined>,
  ) => Promise<ServiceApp & { config: C }>;
  /** The whole of main.ts: load the environment (exit 1 on a bad one), listen, shut down on signals. */
  main: () => void;
}

/** A worker service's startup, the same for every one: config, platform, its modules, listen. */
export const defineWorkerService = <F extends WorkerConfigFields>(
  options: WorkerServiceOptions<F>,
): WorkerService<Config<F>> => {
  @Module({})
  class WorkerAppModule {}

  // F spreads coreConfigFields and a numeric port, but TypeScript does not resolve Config<F> for a
  // generic F, so the one cast lives here.
  const core = (config: Config<F>): CoreConfig & { port: number } =>
    config as unknown as CoreConfig & { port: number };
  const module = (config: Config<F>): DynamicModule => ({
    module: WorkerAppModule,
    imports: [
      PlatformModule.forRoot({ name: options.name, config: core(config), workers: options.workers(config) }),
      ...options.imports,
    ],
  });

  return {
    createApp: async (overrides = {}, env = process.env) => {
      const config = loadConfig(options.config, env, overrides);
      const service = await createServiceApp({
        module: module(config),
        name: options.name,
        config: core(config),
        listenPort: core(config).port,
      });
      return { ...service, config };
    },
    main: () => {
      const config = loadConfigOrExit(options.config);
      void bootstrapService({ module: module(config), name: options.name, config: core(config) });
    },
  };
};
