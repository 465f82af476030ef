import {
  FALLBACK_CHAIN,
  QUEUE_FAILURE_THRESHOLD,
  type ServiceCheck,
  type ServiceHealthReport,
  type SmsSending,
  failureThresholds,
} from '@sprout/contracts';
import { Badge, Button, cn, formatRelativeTime, toast } from '@sprout/ui';
import { ArrowRight, CircleAlert, CircleCheck, RefreshCw } from 'lucide-react';
import { HeadedCard } from '../../components/HeadedCard';
import { PageHeader } from '../../components/PageHeader';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { forceHealthCheckMutation, serviceHealthQuery } from './queries';
import { AvailabilityBadge } from './parts';
import { QueuesPanel } from './QueuesPanel';
import { RateLimitedSenders } from './RateLimitedSenders';
import { smsSendingView } from './sms-sending';
import { monitoringTexts as t } from './texts';

function OverallBanner({ health }: { health: ServiceHealthReport }) {
  const healthy = health.overallHealth === 'healthy';
  const unavailable = Object.values(health.services).filter((s) => !s.available).length;
  const stalled = health.queues.filter((q) => !q.available && q.lastCheck !== null).length;
  const Icon = healthy ? CircleCheck : CircleAlert;
  return (
    <div
      role="status"
      data-testid="overall-health"
      data-health={health.overallHealth}
      className={cn(
        'flex flex-wrap items-start gap-3 rounded-lg border p-4',
        healthy
          ? 'border-emerald-300 bg-emerald-50 text-emerald-900'
          : 'border-destructive/40 bg-destructive/5',
      )}
    >
      <Icon
        className={cn('mt-0.5 size-5', healthy ? 'text-emerald-700' : 'text-destructive')}
        aria-hidden="true"
      />
      <div className="space-y-1">
        <p className="font-semibold">
          {healthy ? 'All systems healthy' : 'System degraded'}
          <span className="ml-2 text-sm font-normal">Overall health: {health.overallHealth}</span>
        </p>
        {!healthy && health.lastRoundAt !== null && (
          <p className="text-sm">
            {unavailable} {unavailable === 1 ? 'service' : 'services'} unavailable, {stalled}{' '}
            {stalled === 1 ? 'queue' : 'queues'} stalled.
          </p>
        )}
        {health.monitorStateError !== null && (
          <p className="text-sm" data-testid="monitor-state-error">
            {health.monitorStateError} {t.withoutMonitorState}
          </p>
        )}
        <p className="text-sm text-muted-foreground" data-testid="last-round">
          {health.monitorStateError !== null
            ? t.monitorStateUnknown
            : health.lastRoundAt === null
              ? 'No health check has run yet: is the monitor service running?'
              : `Last checked ${formatRelativeTime(health.lastRoundAt)}${
                  health.stale ? ': the monitor has stopped reporting, these figures are old' : ''
                }`}
        </p>
      </div>
    </div>
  );
}

/** sms-gateway's Twilio send circuit, on the SMS Provider card. */
function SmsSendingLine({ sending }: { sending: SmsSending | null }) {
  const view = smsSendingView(sending);
  if (!view.paused) {
    return (
      <p data-testid="sms-sending" data-state={sending?.state ?? 'unknown'} className="text-muted-foreground">
        {view.text}
      </p>
    );
  }
  return (
    <div
      role="alert"
      data-testid="sms-sending"
      data-state={sending?.state}
      className="mt-2 rounded-md border border-destructive/40 bg-destructive/5 p-2"
    >
      <p className="flex items-start gap-1.5 font-medium text-destructive">
        <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>{view.text}</span>
      </p>
      {view.lastError !== null && (
        <p className="break-words text-destructive" data-testid="sms-sending-error">
          {view.lastError}
        </p>
      )}
    </div>
  );
}

function ServiceCard({
  name,
  service,
  stateUnknown,
  smsSending,
}: {
  name: string;
  service: ServiceCheck;
  /** The monitor's state could not be read: a service nobody checked is not known, not down. */
  stateUnknown: boolean;
  /** Given for the SMS Provider card only. */
  smsSending?: SmsSending | null;
}) {
  const notChecked = stateUnknown && service.checkedBy === null;
  return (
    <HeadedCard
      data-testid="service-card"
      data-service={name}
      title={service.label}
      heading="h3"
      titleClassName="text-base"
      aside={
        notChecked ? (
          <Badge variant="secondary" data-testid="service-status">
            {t.notChecked}
          </Badge>
        ) : (
          <AvailabilityBadge available={service.available} testId="service-status" />
        )
      }
      contentClassName="space-y-1 text-sm"
    >
      <p data-testid="service-last-check">
        Last check: {service.lastCheck === null ? 'Never' : formatRelativeTime(service.lastCheck)}
      </p>
      <p data-testid="service-failures">
        Consecutive failures: {service.consecutiveFailures}
        <span className="text-muted-foreground"> (unavailable at {service.threshold})</span>
      </p>
      {service.detail !== null && <p className="text-muted-foreground">{service.detail}</p>}
      {service.lastError !== null && (
        <p className="break-words text-destructive" data-testid="service-error">
          {service.lastError}
        </p>
      )}
      {smsSending !== undefined && <SmsSendingLine sending={smsSending} />}
    </HeadedCard>
  );
}

function FallbackInfo({ health }: { health: ServiceHealthReport }) {
  const current = FALLBACK_CHAIN.find((tier) => tier.tier === health.fallback.current.tier);
  return (
    <SectionCard
      title="Fallback System"
      description="How replies are still answered when a service fails."
      testId="fallback-info"
      contentClassName="space-y-4 text-sm"
    >
      <ol
        className="flex flex-wrap items-center gap-2"
        aria-label="Fallback chain"
        data-testid="fallback-chain"
      >
        {FALLBACK_CHAIN.map((tier, index) => (
          <li key={tier.tier} className="flex items-center gap-2">
            {index > 0 && <ArrowRight className="size-4 text-muted-foreground" aria-hidden="true" />}
            <span
              className={cn(
                'rounded-md border px-2 py-1',
                tier.tier === health.fallback.current.tier && 'border-primary bg-primary/10 font-semibold',
              )}
            >
              {tier.label}
            </span>
          </li>
        ))}
      </ol>
      <p data-testid="current-tier">
        Replies now:{' '}
        {current === undefined
          ? 'no reply yet'
          : `${current.label} (newest reply ${formatRelativeTime(health.fallback.current.at)})`}
      </p>
      <div>
        <p className="mb-1 font-medium">Failure thresholds</p>
        <ul className="list-disc space-y-0.5 pl-5 text-muted-foreground" data-testid="thresholds">
          {failureThresholds().map((threshold) => (
            <li key={threshold.service}>
              {threshold.label}: unavailable after {threshold.failures} consecutive failures
            </li>
          ))}
          <li>Queues: stalled after {QUEUE_FAILURE_THRESHOLD} consecutive failed checks</li>
        </ul>
      </div>
    </SectionCard>
  );
}

export default function SystemHealthPage() {
  const health = useQuery(serviceHealthQuery);
  const force = useMutation(forceHealthCheckMutation(useQueryClient()));
  const runCheck = () =>
    force.mutate(
      {},
      {
        onSuccess: () => toast(t.healthCheckComplete),
        onError: () => toast({ variant: 'destructive', ...t.healthCheckFailed }),
      },
    );
  return (
    <>
      <PageHeader
        title="System Health"
        description="Every service Sprout depends on, checked every 30 seconds"
      >
        <Button onClick={runCheck} disabled={force.isPending}>
          <RefreshCw className={cn('size-4', force.isPending && 'animate-spin')} aria-hidden="true" />
          {t.forceHealthCheck}
        </Button>
      </PageHeader>
      <QueryBody query={health} loading={t.loading} failure={t.serviceHealthFailed}>
        {(report) => (
          <div className="flex flex-col gap-6">
            <OverallBanner health={report} />
            <section aria-label="Services" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
              {Object.entries(report.services).map(([name, service]) => (
                <ServiceCard
                  key={name}
                  name={name}
                  service={service}
                  stateUnknown={report.monitorStateError !== null}
                  {...(name === 'sms_provider' ? { smsSending: report.smsSending } : {})}
                />
              ))}
            </section>
            <FallbackInfo health={report} />
            <QueuesPanel checks={report.queues} />
            <RateLimitedSenders />
          </div>
        )}
      </QueryBody>
    </>
  );
}
