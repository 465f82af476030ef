import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@sprout/platform';
import type { SurveySchedulerConfig } from '../config';

/** A point's NWS forecast grid: "PQR/112/103" and where its forecast is read. */
export interface NwsGrid {
  gridKey: string;
  forecastUrl: string;
}

/** A 12-hour forecast period: a day's high or a night's low. */
export interface NwsPeriod {
  name: string;
  startTime: Date;
  endTime: Date;
  isDaytime: boolean;
  temperatureF: number;
  detailedForecast: string;
}

/** The NWS did not answer usefully (down, slow, an error status, a body of another shape). */
class NwsUnavailableError extends Error {}

/** A point's grid changes only when NWS redraws its grids: a week is safe. */
const POINT_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The National Weather Service's public API (api.weather.gov): /points/{lat},{lon} gives a
 * location's forecast grid, then that grid's 12-hour forecast. Every request names Sprout in its
 * User-Agent, as NWS asks, and gives up after NWS_TIMEOUT_MS. Grids are cached per point, so a
 * check reads one forecast per grid and no point lookups once warm.
 */
@Injectable()
export class NwsClient {
  private readonly points = new Map<string, { grid: NwsGrid; until: number }>();

  constructor(@Inject(CONFIG) private readonly config: SurveySchedulerConfig) {}

  async gridFor(latitude: number, longitude: number, now = Date.now()): Promise<NwsGrid> {
    // NWS answers points to four decimals (and redirects longer ones).
    const key = `${latitude.toFixed(4)},${longitude.toFixed(4)}`;
    const cached = this.points.get(key);
    if (cached !== undefined && cached.until > now) return cached.grid;
    const body = await this.get(`${this.config.nwsBaseUrl}/points/${key}`);
    const props = (body as { properties?: Record<string, unknown> }).properties ?? {};
    const { gridId, gridX, gridY, forecast } = props;
    if (
      typeof gridId !== 'string' ||
      typeof gridX !== 'number' ||
      typeof gridY !== 'number' ||
      typeof forecast !== 'string'
    ) {
      throw new NwsUnavailableError(`NWS points ${key}: no forecast grid in the answer`);
    }
    const grid = { gridKey: `${gridId}/${gridX}/${gridY}`, forecastUrl: forecast };
    this.points.set(key, { grid, until: now + POINT_TTL_MS });
    return grid;
  }

  async forecast(grid: NwsGrid): Promise<NwsPeriod[]> {
    const body = await this.get(grid.forecastUrl);
    const periods = (body as { properties?: { periods?: unknown } }).properties?.periods;
    if (!Array.isArray(periods)) throw new NwsUnavailableError(`NWS forecast ${grid.gridKey}: no periods`);
    return periods.flatMap((p: Record<string, unknown>): NwsPeriod[] => {
      const start = typeof p['startTime'] === 'string' ? new Date(p['startTime']) : null;
      const end = typeof p['endTime'] === 'string' ? new Date(p['endTime']) : null;
      const raw = p['temperature'];
      if (start === null || end === null || typeof raw !== 'number') return [];
      const celsius = p['temperatureUnit'] === 'C';
      return [
        {
          name: typeof p['name'] === 'string' ? p['name'] : '',
          startTime: start,
          endTime: end,
          isDaytime: p['isDaytime'] === true,
          temperatureF: Math.round(celsius ? (raw * 9) / 5 + 32 : raw),
          detailedForecast: typeof p['detailedForecast'] === 'string' ? p['detailedForecast'] : '',
        },
      ];
    });
  }

  private async get(url: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { 'User-Agent': this.config.nwsUserAgent, Accept: 'application/geo+json' },
        signal: AbortSignal.timeout(this.config.nwsTimeoutMs),
      });
    } catch (error) {
      throw new NwsUnavailableError(`NWS ${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (!response.ok) throw new NwsUnavailableError(`NWS ${url}: HTTP ${response.status}`);
    try {
      return await response.json();
    } catch {
      throw new NwsUnavailableError(`NWS ${url}: the answer is not JSON`);
    }
  }
}
