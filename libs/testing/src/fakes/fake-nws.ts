// A fake National Weather Service API (api.weather.gov: /points and the gridpoint forecast) on
// node:http, for the calendar's NWS client and for `npm start` without a network. Forecasts are
// mild by default; tests script a freeze, a heat wave or an outage per grid or everywhere.
import http from 'node:http';
import { closeServer, listen, sendJson } from './http-util';

export interface FakeNwsOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The forecast's clock (periods start from it); default the real one. */
  now?: () => Date;
}

/** One 12-hour forecast period, as NWS writes it. */
export interface FakeNwsPeriod {
  number: number;
  name: string;
  startTime: string;
  endTime: string;
  isDaytime: boolean;
  temperature: number;
  temperatureUnit: 'F';
  shortForecast: string;
  detailedForecast: string;
}

/** What a scripted grid's periods say: a low or high on the period starting at `at`. */
export interface FakeNwsEvent {
  /** Office/x/y ("FAK/123/456"), or every grid when absent. */
  gridKey?: string;
  /** The period (12 h, starting 06:00 or 18:00 UTC) that contains this instant. */
  at: Date;
  temperatureF: number;
}

export interface FakeNwsRequestLog {
  path: string;
  userAgent: string | undefined;
}

const HOUR = 60 * 60 * 1000;
/** Degrees per grid cell: nearby ZIPs share a grid, as real 2.5 km cells are shared. */
const CELL_DEGREES = 0.05;

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export class FakeNws {
  readonly requests: FakeNwsRequestLog[] = [];
  private events: FakeNwsEvent[] = [];
  private outage: { status: number } | null = null;
  private stallMs = 0;
  private nowFn: () => Date;

  private constructor(
    private readonly server: http.Server,
    public readonly url: string,
    now: () => Date,
  ) {
    this.nowFn = now;
  }

  static async start(options: FakeNwsOptions = {}): Promise<FakeNws> {
    let fake: FakeNws | null = null;
    const server = http.createServer((req, res) => fake?.handle(req, res));
    const url = await listen(server, options.port ?? 0, options.host ?? '127.0.0.1');
    fake = new FakeNws(server, url, options.now ?? (() => new Date()));
    return fake;
  }

  /** The grid a point falls in, as /points answers it. */
  static gridKeyOf(latitude: number, longitude: number): string {
    return `FAK/${Math.round((longitude + 180) / CELL_DEGREES)}/${Math.round((latitude + 90) / CELL_DEGREES)}`;
  }

  setNow(now: () => Date): void {
    this.nowFn = now;
  }

  /** A forecast low (night period) or high (day period) at or below / above what is normal. */
  forecast(event: FakeNwsEvent): void {
    this.events.push(event);
  }

  /** Every request answers this status (503 by default) until `recover()`. */
  fail(status = 503): void {
    this.outage = { status };
  }

  /** Every request waits this long before answering (a hung NWS), until `recover()`. */
  stall(ms: number): void {
    this.stallMs = ms;
  }

  recover(): void {
    this.outage = null;
    this.stallMs = 0;
  }

  /** Mild weather everywhere again, no outage, no request log. */
  reset(): void {
    this.events = [];
    this.outage = null;
    this.stallMs = 0;
    this.requests.length = 0;
  }

  close(): Promise<void> {
    return closeServer(this.server);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    this.requests.push({ path, userAgent: req.headers['user-agent'] });
    if (this.stallMs > 0) {
      setTimeout(() => this.answer(path, res), this.stallMs).unref();
      return;
    }
    this.answer(path, res);
  }

  private answer(path: string, res: http.ServerResponse): void {
    if (this.outage !== null) {
      sendJson(res, this.outage.status, { title: 'Service Unavailable', status: this.outage.status });
      return;
    }
    const point = /^\/points\/(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(path);
    if (point) {
      const [office, x, y] = FakeNws.gridKeyOf(Number(point[1]), Number(point[2])).split('/');
      const base = `${this.url}/gridpoints/${office}/${x},${y}`;
      sendJson(res, 200, {
        properties: {
          gridId: office,
          gridX: Number(x),
          gridY: Number(y),
          forecast: `${base}/forecast`,
          forecastGridData: base,
        },
      });
      return;
    }
    const grid = /^\/gridpoints\/([A-Z]{3})\/(\d+),(\d+)\/forecast$/.exec(path);
    if (grid) {
      sendJson(res, 200, { properties: { periods: this.periods(`${grid[1]}/${grid[2]}/${grid[3]}`) } });
      return;
    }
    sendJson(res, 404, { title: 'Not Found', status: 404 });
  }

  /** Seven days of 12-hour periods from the current one: mild (58F / 45F) unless scripted. */
  private periods(gridKey: string): FakeNwsPeriod[] {
    const now = this.nowFn().getTime();
    // Periods start at 06:00 and 18:00 UTC.
    let start = Math.floor((now - 6 * HOUR) / (12 * HOUR)) * 12 * HOUR + 6 * HOUR;
    const periods: FakeNwsPeriod[] = [];
    for (let n = 1; n <= 14; n++, start += 12 * HOUR) {
      const end = start + 12 * HOUR;
      const isDaytime = new Date(start).getUTCHours() === 6;
      const scripted = this.events.find(
        (e) =>
          (e.gridKey === undefined || e.gridKey === gridKey) &&
          e.at.getTime() >= start &&
          e.at.getTime() < end,
      );
      const temperature = scripted?.temperatureF ?? (isDaytime ? 58 : 45);
      const day = DAY_NAMES[new Date(start).getUTCDay()] ?? 'Today';
      const name =
        n === 1
          ? isDaytime
            ? 'Today'
            : 'Tonight'
          : n === 2 && !isDaytime
            ? 'Tonight'
            : isDaytime
              ? day
              : `${day} Night`;
      const words = isDaytime ? `a high near ${temperature}` : `a low around ${temperature}`;
      periods.push({
        number: n,
        name,
        startTime: new Date(start).toISOString(),
        endTime: new Date(end).toISOString(),
        isDaytime,
        temperature,
        temperatureUnit: 'F',
        shortForecast: isDaytime ? 'Partly Sunny' : 'Mostly Clear',
        detailedForecast: `${isDaytime ? 'Partly sunny' : 'Mostly clear'}, with ${words}.`,
      });
    }
    return periods;
  }
}
