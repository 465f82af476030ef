import { type Db, managerOf } from '../db';
import { getSetting, setSetting } from '../queries/settings';

/** Settings key of the switch that holds every tip: 'true' or 'false'. */
export const GARDEN_CALENDAR_PAUSED_SETTING = 'garden_calendar_paused';

/** Whether tips are paused (never set: not paused). */
export async function gardenCalendarPaused(db: Db): Promise<boolean> {
  const value = await getSetting<unknown>(managerOf(db), GARDEN_CALENDAR_PAUSED_SETTING);
  return value === true || value === 'true';
}

export async function setGardenCalendarPaused(db: Db, paused: boolean): Promise<void> {
  await setSetting(managerOf(db), GARDEN_CALENDAR_PAUSED_SETTING, paused ? 'true' : 'false');
}
