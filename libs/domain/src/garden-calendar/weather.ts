import { type Db, managerOf } from '../db';
import type { WeatherAlertKind } from '../types';

/** Where subscribers garden: their ZIPs, each with its subscribers (not opted out). */
export async function subscriberZips(db: Db): Promise<{ zipCode: string; userIds: string[] }[]> {
  const rows = await managerOf(db).query<{ zip_code: string; user_ids: string[] }[]>(
    `SELECT zip_code, array_agg(id ORDER BY id) AS user_ids FROM users
      WHERE tips_status = 'subscribed' AND NOT opted_out AND zip_code IS NOT NULL
      GROUP BY zip_code ORDER BY zip_code`,
  );
  return rows.map((r) => ({ zipCode: r.zip_code, userIds: r.user_ids }));
}

export interface WeatherAlertInput {
  gridKey: string;
  kind: WeatherAlertKind;
  eventDate: string;
  lowF: number | null;
  highF: number | null;
  forecast: string;
  raisedAt: Date;
}

/** The alert for a grid, kind and day: raised now, or the one raised by an earlier run. */
export async function raiseWeatherAlert(
  db: Db,
  alert: WeatherAlertInput,
): Promise<{ id: string; created: boolean }> {
  const manager = managerOf(db);
  const inserted = await manager.query<{ id: string }[]>(
    `INSERT INTO weather_alerts (grid_key, kind, event_date, low_f, high_f, forecast, raised_at)
     VALUES ($1, $2, $3::date, $4, $5, $6, $7)
     ON CONFLICT (grid_key, kind, event_date) DO NOTHING RETURNING id`,
    [alert.gridKey, alert.kind, alert.eventDate, alert.lowF, alert.highF, alert.forecast, alert.raisedAt],
  );
  if (inserted[0] !== undefined) return { id: inserted[0].id, created: true };
  const existing = await manager.query<{ id: string }[]>(
    `SELECT id FROM weather_alerts WHERE grid_key = $1 AND kind = $2 AND event_date = $3::date`,
    [alert.gridKey, alert.kind, alert.eventDate],
  );
  if (existing[0] === undefined)
    throw new Error(`Weather alert ${alert.gridKey} ${alert.kind} ${alert.eventDate} vanished`);
  return { id: existing[0].id, created: false };
}
