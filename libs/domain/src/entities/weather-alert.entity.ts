import { Check, Column, Entity, Index, Unique } from 'typeorm';
import { inList } from '../sql';
import { WEATHER_ALERT_KINDS, type WeatherAlertKind } from '../types';
import { IdColumn, TextColumn, TimestampColumn, VarcharColumn } from './columns';

/** A freeze or heat extreme the NWS forecast for one grid and day: raised once, texted to its subscribers. */
@Entity({ name: 'weather_alerts' })
@Unique('uq_weather_alerts_grid_kind_date', ['gridKey', 'kind', 'eventDate'])
@Check('chk_weather_alerts_kind', inList('kind', WEATHER_ALERT_KINDS))
@Index('idx_weather_alerts_raised_at', ['raisedAt'])
export class WeatherAlert {
  @IdColumn('weather_alerts')
  id!: string;

  /** The NWS grid: "PQR/112/103" (office/x/y). */
  @VarcharColumn('grid_key')
  gridKey!: string;

  @VarcharColumn('kind')
  kind!: WeatherAlertKind;

  /** The local day of the forecast low or high, YYYY-MM-DD. */
  @Column({ name: 'event_date', type: 'date' })
  eventDate!: string;

  @Column({ name: 'low_f', type: 'integer', nullable: true })
  lowF!: number | null;

  @Column({ name: 'high_f', type: 'integer', nullable: true })
  highF!: number | null;

  /** The forecast period's own words ("Tonight: Clear, with a low around 29."). */
  @TextColumn('forecast')
  forecast!: string;

  @TimestampColumn('raised_at', { default: () => 'now()' })
  raisedAt!: Date;
}
