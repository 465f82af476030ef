import type { GardenCalendarAlert, GardenCalendarSend } from '@sprout/contracts';
import {
  Badge,
  Button,
  cn,
  formatDate,
  formatDateTime,
  formatDollars,
  formatNumber,
  formatUtcDay,
  TableCell,
  TableRow,
} from '@sprout/ui';
import { useQuery } from '@tanstack/react-query';
import { CloudSnow, Send, Users } from 'lucide-react';
import { useState } from 'react';
import { DataTable, right } from '../../components/DataTable';
import { EmptyState } from '../../components/EmptyState';
import { SectionCard } from '../../components/SectionCard';
import { QueryBody } from '../../components/QueryBody';
import {
  SUBSCRIBERS_PAGE_SIZE,
  calendarAlertsQuery,
  calendarSendsQuery,
  calendarSubscribersQuery,
} from './queries';
import { ALERT_KIND_LABELS, KIND_LABELS, calendarTexts as t } from './texts';

export function SubscribersCard() {
  const [page, setPage] = useState(1);
  const subscribers = useQuery(calendarSubscribersQuery(page));
  const pages =
    subscribers.data === undefined
      ? 1
      : Math.max(1, Math.ceil(subscribers.data.total / SUBSCRIBERS_PAGE_SIZE));
  return (
    <SectionCard
      title="Subscribers"
      description="Gardeners who texted TIPS, latest first. Phone numbers are masked."
      testId="calendar-subscribers"
    >
      <QueryBody
        loading={t.loading}
        query={subscribers}
        failure={t.subscribersFailed}
        isEmpty={(data) => data.total === 0}
        empty={
          <EmptyState
            icon={Users}
            title={t.noSubscribersTitle}
            hint={t.noSubscribersHint}
            testId="subscribers-empty"
          />
        }
      >
        {(data) => (
          <>
            <DataTable
              data-testid="subscribers-table"
              headRowClassName="hover:bg-transparent"
              headings={['Phone', 'ZIP', 'Zone', 'Subscribed', right('Tips sent')]}
            >
              {data.subscribers.map((s) => (
                <TableRow key={s.userId} data-testid="subscriber-row">
                  <TableCell className="font-mono text-xs">{s.maskedPhone}</TableCell>
                  <TableCell>{s.zipCode ?? '—'}</TableCell>
                  <TableCell>{s.hardinessZone ?? '—'}</TableCell>
                  <TableCell>{formatDate(s.since)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatNumber(s.tipsSent)}</TableCell>
                </TableRow>
              ))}
            </DataTable>
            <div className="mt-3 flex items-center justify-between text-sm text-muted-foreground">
              <span data-testid="subscribers-count">
                {formatNumber(data.total)} {data.total === 1 ? 'subscriber' : 'subscribers'}
              </span>
              {pages > 1 && (
                <span className="flex items-center gap-2">
                  <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                    Previous
                  </Button>
                  Page {page} of {pages}
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={page >= pages}
                    onClick={() => setPage(page + 1)}
                  >
                    Next
                  </Button>
                </span>
              )}
            </div>
          </>
        )}
      </QueryBody>
    </SectionCard>
  );
}

const STATUS_CLASSES: Record<string, string> = {
  delivered: 'border-transparent bg-emerald-100 text-emerald-900',
  sent: 'border-transparent bg-sky-100 text-sky-900',
  failed: 'border-transparent bg-red-100 text-red-900',
  undelivered: 'border-transparent bg-red-100 text-red-900',
};

function DeliveryBadge({ status }: { status: string | null }) {
  return (
    <Badge
      variant="outline"
      className={cn(STATUS_CLASSES[status ?? ''] ?? 'border-border text-muted-foreground')}
      data-testid="send-status"
    >
      {status === null ? 'No message' : status.charAt(0).toUpperCase() + status.slice(1)}
    </Badge>
  );
}

function SendsTable({ sends }: { sends: readonly GardenCalendarSend[] }) {
  return (
    <DataTable
      data-testid="sends-table"
      headRowClassName="hover:bg-transparent"
      headings={['Sent', 'Kind', 'To', 'Text', 'Delivery', right('SMS cost')]}
    >
      {sends.map((send) => (
        <TableRow key={send.id} data-testid="send-row">
          <TableCell className="whitespace-nowrap">{formatDateTime(send.sentAt)}</TableCell>
          <TableCell>{KIND_LABELS[send.kind]}</TableCell>
          <TableCell className="font-mono text-xs">{send.maskedPhone}</TableCell>
          <TableCell className="max-w-md truncate" title={send.body}>
            {send.body}
          </TableCell>
          <TableCell>
            <DeliveryBadge status={send.deliveryStatus} />
          </TableCell>
          <TableCell className="text-right tabular-nums">
            {send.costUsd === null ? '—' : formatDollars(send.costUsd, 4)}
          </TableCell>
        </TableRow>
      ))}
    </DataTable>
  );
}

export function SendsCard() {
  const sends = useQuery(calendarSendsQuery);
  return (
    <SectionCard
      title="Recent sends"
      description="Tips and alerts sent, newest first, with delivery status and SMS cost at list price."
      testId="calendar-sends"
    >
      <QueryBody
        loading={t.loading}
        query={sends}
        failure={t.sendsFailed}
        empty={<EmptyState icon={Send} title={t.noSendsTitle} hint={t.noSendsHint} testId="sends-empty" />}
      >
        {(data) => <SendsTable sends={data} />}
      </QueryBody>
    </SectionCard>
  );
}

/** "Low 28°F", "High 104°F" or both. */
const temperatureText = (alert: GardenCalendarAlert): string =>
  [alert.lowF === null ? null : `Low ${alert.lowF}°F`, alert.highF === null ? null : `High ${alert.highF}°F`]
    .filter((part) => part !== null)
    .join(' · ') || '—';

function AlertsTable({ alerts }: { alerts: readonly GardenCalendarAlert[] }) {
  return (
    <DataTable
      data-testid="alerts-table"
      headRowClassName="hover:bg-transparent"
      headings={['Raised', 'Kind', 'For', 'Forecast', 'Area (NWS grid)', right('Texts sent')]}
    >
      {alerts.map((alert) => (
        <TableRow key={alert.id} data-testid="alert-row">
          <TableCell className="whitespace-nowrap">{formatDateTime(alert.raisedAt)}</TableCell>
          <TableCell>{ALERT_KIND_LABELS[alert.kind]}</TableCell>
          <TableCell className="whitespace-nowrap">{formatUtcDay(alert.eventDate)}</TableCell>
          <TableCell>
            <p className="font-medium">{temperatureText(alert)}</p>
            <p className="text-xs text-muted-foreground">{alert.forecast}</p>
          </TableCell>
          <TableCell className="font-mono text-xs">{alert.gridKey}</TableCell>
          <TableCell className="text-right tabular-nums">{formatNumber(alert.textsSent)}</TableCell>
        </TableRow>
      ))}
    </DataTable>
  );
}

export function AlertsCard() {
  const alerts = useQuery(calendarAlertsQuery);
  return (
    <SectionCard
      title="Weather alerts"
      description="Freezes and heat extremes the National Weather Service forecast for subscribers’ areas."
      testId="calendar-alerts"
    >
      <QueryBody
        loading={t.loading}
        query={alerts}
        failure={t.alertsFailed}
        empty={
          <EmptyState icon={CloudSnow} title={t.noAlertsTitle} hint={t.noAlertsHint} testId="alerts-empty" />
        }
      >
        {(data) => <AlertsTable alerts={data} />}
      </QueryBody>
    </SectionCard>
  );
}
