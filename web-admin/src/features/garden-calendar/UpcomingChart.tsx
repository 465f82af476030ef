import type { GardenCalendarDay, GardenCalendarUpcoming } from '@sprout/contracts';
import { formatNumber } from '@sprout/ui';
import { AxisChart, GridLines } from '../../components/AxisChart';
import { KIND_LABELS, calendarTexts as t } from './texts';

type Kind = keyof typeof KIND_LABELS;
const KINDS: readonly Kind[] = ['tip', 'frost_alert', 'heat_alert'];
const KIND_COLORS: Record<Kind, string> = {
  tip: 'bg-primary/70',
  frost_alert: 'bg-sky-500',
  heat_alert: 'bg-amber-500',
};

/** Round steps for a count axis: the smallest that splits the tallest bar into at most 4. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000];

function countAxis(tallest: number): { ticks: number[]; top: number } {
  const step =
    COUNT_STEPS.find((candidate) => tallest / candidate <= 4) ?? Math.ceil(tallest / 4 / 10_000) * 10_000;
  const steps = Math.max(1, Math.ceil(tallest / step));
  return { ticks: Array.from({ length: steps + 1 }, (_, i) => i * step), top: steps * step };
}

const dayTotal = (day: GardenCalendarDay): number => day.tip + day.frost_alert + day.heat_alert;

const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'short', timeZone: 'UTC' });
const monthDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** 'Mon' and 'Mar 3' of a YYYY-MM-DD day (a calendar date, not an instant: read in UTC). */
const dayLabels = (date: string) => {
  const at = new Date(`${date}T00:00:00Z`);
  return { weekday: weekday.format(at), monthDay: monthDay.format(at) };
};

/** Texts scheduled for the next 14 days as stacked bars by kind, with a count axis and the days below. */
export function UpcomingChart({ upcoming }: { upcoming: GardenCalendarUpcoming }) {
  const totals = Object.fromEntries(
    KINDS.map((kind) => [kind, upcoming.days.reduce((sum, day) => sum + day[kind], 0)]),
  ) as Record<Kind, number>;
  const all = totals.tip + totals.frost_alert + totals.heat_alert;
  const summary = KINDS.map(
    (kind) => `${formatNumber(totals[kind])} ${KIND_LABELS[kind].toLowerCase()}s`,
  ).join(', ');
  if (all === 0) {
    return (
      <p className="py-6 text-center text-sm text-muted-foreground" data-testid="upcoming-empty">
        {t.nothingScheduled}
      </p>
    );
  }
  const { ticks, top } = countAxis(Math.max(...upcoming.days.map(dayTotal)));
  return (
    <figure data-testid="upcoming-chart">
      <figcaption className="mb-3 text-xs text-muted-foreground" data-testid="upcoming-totals">
        {summary} scheduled; days in {upcoming.timeZone}.
      </figcaption>
      <div className="mb-3 flex flex-wrap gap-4 text-xs" aria-hidden="true">
        {KINDS.map((kind) => (
          <span key={kind} className="flex items-center gap-1.5">
            <span className={`size-3 rounded-sm ${KIND_COLORS[kind]}`} />
            {KIND_LABELS[kind]}
          </span>
        ))}
      </div>
      <AxisChart
        yLabel="Texts scheduled"
        ticks={ticks}
        top={top}
        below={
          <div
            className="ml-8 flex justify-around gap-1 px-1 pt-1 text-center text-[10px] leading-tight text-muted-foreground"
            aria-hidden="true"
          >
            {upcoming.days.map((day) => {
              const { weekday: wd, monthDay: md } = dayLabels(day.date);
              return (
                <span key={day.date} className="max-w-10 min-w-2 flex-1">
                  {wd}
                  <br />
                  {md}
                </span>
              );
            })}
          </div>
        }
      >
        <ol
          className="relative flex h-40 min-w-0 flex-1 items-end justify-around gap-1 border-b border-l border-foreground/40 px-1"
          aria-label={`Texts scheduled per day: ${summary}`}
        >
          <GridLines ticks={ticks} top={top} as="li" />
          {upcoming.days.map((day) => {
            const total = dayTotal(day);
            const label = `${day.date}: ${KINDS.map((k) => `${day[k]} ${KIND_LABELS[k].toLowerCase()}`).join(', ')}`;
            return (
              <li
                key={day.date}
                className="relative flex h-full max-w-10 min-w-2 flex-1 list-none flex-col-reverse"
                title={label}
                aria-label={label}
                data-testid="upcoming-day"
                data-date={day.date}
                data-total={total}
              >
                {KINDS.map((kind) =>
                  day[kind] === 0 ? null : (
                    <span
                      key={kind}
                      className={`block w-full first:rounded-none last:rounded-t ${KIND_COLORS[kind]}`}
                      style={{ height: `${(day[kind] / top) * 100}%` }}
                    />
                  ),
                )}
              </li>
            );
          })}
        </ol>
      </AxisChart>
    </figure>
  );
}
