import { type ConfigOf, defineConfig, field, integerSchema, loadConfig } from '@sprout/platform';

/**
 * The monitoring endpoints' own settings, validated when the module starts (the error names the
 * variable). MONITOR_FORCE_CHECK_TIMEOUT_MS: how long a forced health check or prediction waits
 * for the monitor's answer (each check itself is limited by the monitor's MONITOR_CHECK_TIMEOUT_MS).
 */
const monitoringConfig = defineConfig({
  forceCheckTimeoutMs: field('MONITOR_FORCE_CHECK_TIMEOUT_MS', integerSchema(20_000, 100, 5 * 60_000)),
});
export type MonitoringConfig = ConfigOf<typeof monitoringConfig>;

/** Injection token of the loaded MonitoringConfig. */
export const MONITORING_CONFIG = Symbol('sprout:monitoring-config');

export const loadMonitoringConfig = (
  env: Record<string, string | undefined> = process.env,
): MonitoringConfig => loadConfig(monitoringConfig, env);
