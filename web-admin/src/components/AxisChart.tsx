import { cn } from '@sprout/ui';
import type { ReactNode } from 'react';

/** How high a value stands on an axis whose top is `top`, as a CSS percentage. */
const heightOf = (value: number, top: number): string => `${(value / top) * 100}%`;

/**
 * A bar chart's frame: the y axis's title and ticks left of the plot (`children`), and `below`
 * under it (the x axis). `testId` names the y axis's title and ticks `<testId>-y-label` and `-y-axis`.
 */
export function AxisChart({
  yLabel,
  ticks,
  top,
  tickSuffix = '',
  wide = false,
  testId,
  below,
  children,
}: {
  yLabel: string;
  ticks: readonly number[];
  top: number;
  /** Written after each tick's number ('s' for seconds). */
  tickSuffix?: string;
  /** Room for longer tick texts. */
  wide?: boolean;
  testId?: string;
  below: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex gap-2">
      <p
        className="flex w-4 shrink-0 rotate-180 items-center justify-center text-xs text-muted-foreground [writing-mode:vertical-rl]"
        data-testid={testId && `${testId}-y-label`}
      >
        {yLabel}
      </p>
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex">
          <div
            className={cn(
              'relative h-40 shrink-0 text-right text-xs text-muted-foreground tabular-nums',
              wide ? 'w-10' : 'w-8',
            )}
            aria-hidden="true"
            data-testid={testId && `${testId}-y-axis`}
          >
            {ticks.map((tick) => (
              <span
                key={tick}
                className="absolute right-1.5 translate-y-1/2 leading-none"
                style={{ bottom: heightOf(tick, top) }}
              >
                {tick}
                {tickSuffix}
              </span>
            ))}
          </div>
          {children}
        </div>
        {below}
      </div>
    </div>
  );
}

/** Dashed lines across the plot at each tick above 0; `as="li"` inside a list. */
export function GridLines({
  ticks,
  top,
  as: Line = 'div',
}: {
  ticks: readonly number[];
  top: number;
  as?: 'div' | 'li';
}) {
  return ticks
    .slice(1)
    .map((tick) => (
      <Line
        key={`grid-${tick}`}
        className={cn(
          'pointer-events-none absolute inset-x-0 border-t border-dashed border-border',
          Line === 'li' && 'list-none',
        )}
        style={{ bottom: heightOf(tick, top) }}
        aria-hidden="true"
      />
    ));
}
