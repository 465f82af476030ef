/** Injection token of the service's loaded configuration: `@Inject(CONFIG) config: MyServiceConfig`. */
export const CONFIG = Symbol('sprout:config');
/** Injection token of the pino logger: `@Inject(LOGGER) logger: Logger`. */
export const LOGGER = Symbol('sprout:logger');
/** Internal: the options PlatformModule.forRoot was given. */
export const PLATFORM_OPTIONS = Symbol('sprout:platform-options');
