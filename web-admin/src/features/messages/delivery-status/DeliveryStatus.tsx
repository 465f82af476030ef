import { cn, Tooltip, TooltipContent, TooltipTrigger } from '@sprout/ui';
import { CircleCheck, CircleDot, CircleHelp, CircleX, Clock, type LucideIcon } from 'lucide-react';
import { type DeliveryFields, type DeliveryState, deliveryIndicator } from './delivery-indicator';

const ICONS: Record<DeliveryState, { icon: LucideIcon; className: string }> = {
  delivered: { icon: CircleCheck, className: 'text-emerald-600' },
  failed: { icon: CircleX, className: 'text-destructive' },
  pending: { icon: Clock, className: 'text-amber-600' },
  unknown: { icon: CircleHelp, className: 'text-muted-foreground' },
  other: { icon: CircleDot, className: 'text-sky-700' },
};

/** A message's delivery icon with its tooltip; nothing for inbound and test-user messages. */
export function DeliveryStatus({ message, className }: { message: DeliveryFields; className?: string }) {
  const indicator = deliveryIndicator(message);
  if (indicator === null) return null;
  const { icon: Icon, className: color } = ICONS[indicator.state];
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <button
          type="button"
          aria-label={indicator.label}
          data-testid="delivery-status"
          data-delivery={indicator.state}
          className={cn(
            'inline-flex cursor-default items-center rounded-full focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
            color,
            className,
          )}
        >
          <Icon className="size-3.5" aria-hidden="true" />
        </button>
      </TooltipTrigger>
      <TooltipContent>{indicator.tooltip}</TooltipContent>
    </Tooltip>
  );
}
