import { Badge, type BadgeProps, cn } from '@sprout/ui';
import { CircleCheck, CircleHelp, CircleX, Clock, type LucideIcon, Send } from 'lucide-react';
import type { ReactNode } from 'react';

/** A horizontal bar filled to `percent` (0 to 100). */
export function Bar({
  percent,
  tone = 'primary',
  label,
  testId,
}: {
  percent: number;
  tone?: 'primary' | 'warning' | 'danger';
  label: string;
  testId?: string;
}) {
  const width = Math.min(Math.max(percent, 0), 100);
  return (
    <div
      className="h-2 w-full overflow-hidden rounded-full bg-muted"
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(width)}
      data-testid={testId}
    >
      <div
        className={cn(
          'h-full rounded-full',
          tone === 'danger' ? 'bg-destructive' : tone === 'warning' ? 'bg-amber-500' : 'bg-primary',
        )}
        style={{ width: `${width}%` }}
      />
    </div>
  );
}

/** Available or Unavailable, on the service cards. */
export function AvailabilityBadge({ available, testId }: { available: boolean; testId?: string }) {
  return (
    <Badge variant={available ? 'default' : 'destructive'} data-testid={testId}>
      {available ? 'Available' : 'Unavailable'}
    </Badge>
  );
}

/** high: destructive, medium: secondary, anything else: default. */
export const levelBadgeVariant = (level: string): BadgeProps['variant'] =>
  level === 'high' ? 'destructive' : level === 'medium' ? 'secondary' : 'default';

export type DeliveryState = 'delivered' | 'failed' | 'pending' | 'unknown' | 'other';

/**
 * Delivered, sent, received mean delivered; failed, undelivered mean failed; pending
 * means pending; missing means unknown. Other provider statuses show as they are.
 */
export function deliveryStateOf(status: string | null | undefined): DeliveryState {
  const value = status?.trim().toLowerCase() ?? '';
  if (value === '') return 'unknown';
  if (['delivered', 'sent', 'received'].includes(value)) return 'delivered';
  if (['failed', 'undelivered'].includes(value)) return 'failed';
  if (value === 'pending') return 'pending';
  return 'other';
}

const DELIVERY: Record<DeliveryState, { icon: LucideIcon; variant: BadgeProps['variant'] }> = {
  delivered: { icon: CircleCheck, variant: 'default' },
  failed: { icon: CircleX, variant: 'destructive' },
  pending: { icon: Clock, variant: 'secondary' },
  unknown: { icon: CircleHelp, variant: 'outline' },
  other: { icon: Send, variant: 'outline' },
};

/** A message's status badge with its delivery icon. */
export function DeliveryBadge({ status }: { status: string | null }) {
  const state = deliveryStateOf(status);
  const { icon: Icon, variant } = DELIVERY[state];
  const text = state === 'other' ? (status ?? '') : state;
  return (
    <Badge variant={variant} className="gap-1 capitalize" data-testid="message-status" data-delivery={state}>
      <Icon className="size-3" aria-hidden="true" />
      {text}
    </Badge>
  );
}

/** A label and its value, as the metric grids show them; `measures` says what it counts. */
export function Figure({
  label,
  value,
  testId,
  measures,
}: {
  label: string;
  value: ReactNode;
  testId: string;
  measures?: string;
}) {
  return (
    <div className="rounded-lg border p-3" data-testid={testId}>
      <p className="text-xs text-muted-foreground">{label}</p>
      <p className="mt-1 text-lg font-semibold" data-testid={`${testId}-value`}>
        {value}
      </p>
      {measures !== undefined && (
        <p className="mt-1 text-xs text-muted-foreground" data-testid={`${testId}-measures`}>
          {measures}
        </p>
      )}
    </div>
  );
}

/** Seconds with one decimal from milliseconds. */
export const secondsText = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** Megabytes with one decimal. */
export const megabytesText = (mb: number): string => `${mb.toFixed(1)} MB`;

/** Round steps for a seconds axis: the smallest that splits the tallest bar into at most 4. */
const AXIS_STEPS_SECONDS = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];

/** The seconds axis of a chart whose tallest value is `longestMs`: its ticks (0 first) and its top. */
export function secondsAxis(longestMs: number): { ticks: number[]; top: number } {
  const longest = Math.max(longestMs, 0) / 1000;
  const step =
    AXIS_STEPS_SECONDS.find((candidate) => longest / candidate <= 4) ?? Math.ceil(longest / 4 / 600) * 600;
  const steps = Math.max(1, Math.ceil(longest / step));
  const ticks = Array.from({ length: steps + 1 }, (_, i) => Number((i * step).toFixed(1)));
  return { ticks, top: steps * step };
}
