import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { inList } from '../sql';
import { WEATHER_ALERT_KINDS, type WeatherAlertKind } from '../types';

/** A freeze or heat extreme the NWS forecast for one grid and day: raised once, texted to its subscribers. */
@Entity({ name: 'weather_alerts' })
@Unique('uq_weather_alerts_grid_kind_date', ['gridKey', 'kind', 'eventDate'])
@Check('chk_weather_alerts_kind', inList('kind', WEATHER_ALERT_KINDS))
@Index('idx_weather_alerts_raised_at', ['raisedAt'])
export class WeatherAlert {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_weather_alerts' })
  id!: string;

  /** The NWS grid: "PQR/112/103" (office/x/y). */
  @Column({ name: 'grid_key', type: 'varchar' })
  gridKey!: string;

  @Column({ name: 'kind', type: 'varchar' })
  kind!: WeatherAlertKind;

  /** The local day of the forecast low or high, YYYY-MM-DD. */
  @Column({ name: 'event_date', type: 'date' })
  eventDate!: string;

  @Column({ name: 'low_f', type: 'integer', nullable: true })
  lowF!: number | null;

  @Column({ name: 'high_f', type: 'integer', nullable: true })
  highF!: number | null;

  /** The forecast period's own words ("Tonight: Clear, with a low around 29."). */
  @Column({ name: 'forecast', type: 'text' })
  forecast!: string;

  @Column({ name: 'raised_at', type: 'timestamptz', default: () => 'now()' })
  raisedAt!: Date;
}
