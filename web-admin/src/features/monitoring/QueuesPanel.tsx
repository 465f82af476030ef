import type { FailedJob, QueueCheck, QueueStatus } from '@sprout/contracts';
import {
  Badge,
  Button,
  formatNumber,
  formatRelativeTime,
  serverMessage,
  TableCell,
  TableRow,
  toast,
} from '@sprout/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { failedJobMutation, queuesQuery } from './queries';
import { DataTable } from '../../components/DataTable';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { monitoringTexts as t } from './texts';

/** A failed job's two actions: the button, the toast when done and the toast's title when refused. */
const JOB_ACTIONS = {
  retry: { label: 'Retry', done: 'Job Retried', outcome: 'is waiting again.', failed: 'Retry Failed' },
  remove: { label: 'Remove', done: 'Job Removed', outcome: 'is removed.', failed: 'Remove Failed' },
} as const;

function FailedJobRow({ queue, job }: { queue: string; job: FailedJob }) {
  const queryClient = useQueryClient();
  const mutations = {
    retry: useMutation(failedJobMutation(queryClient, 'retry')),
    remove: useMutation(failedJobMutation(queryClient, 'remove')),
  };
  const busy = mutations.retry.isPending || mutations.remove.isPending;
  const target = { queue, jobId: job.id };
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-2 rounded-md border p-2"
      data-testid="failed-job"
    >
      <div className="min-w-0 text-xs">
        <p className="font-mono">{job.id}</p>
        <p className="text-destructive" data-testid="failed-job-reason">
          {job.failedReason}
        </p>
        <p className="text-muted-foreground">
          Attempts {job.attemptsMade} of {job.maxAttempts} · failed {formatRelativeTime(job.failedAt)}
        </p>
      </div>
      <div className="flex gap-2">
        {(['retry', 'remove'] as const).map((action) => {
          const { label, done, outcome, failed } = JOB_ACTIONS[action];
          return (
            <Button
              key={action}
              size="sm"
              variant="outline"
              disabled={busy}
              aria-label={`${label} job ${job.id} of ${queue}`}
              onClick={() =>
                mutations[action].mutate(
                  { params: target },
                  {
                    onSuccess: () => toast({ title: done, description: `${queue} job ${job.id} ${outcome}` }),
                    onError: (error) =>
                      toast({
                        variant: 'destructive',
                        title: failed,
                        description: serverMessage(error, error.message),
                      }),
                  },
                )
              }
            >
              {label}
            </Button>
          );
        })}
      </div>
    </li>
  );
}

function QueueHealth({ check }: { check: QueueCheck | undefined }) {
  if (check === undefined || check.lastCheck === null) return <Badge variant="outline">Not checked</Badge>;
  return (
    <div className="flex flex-col gap-1">
      <Badge variant={check.available ? 'default' : 'destructive'} data-testid="queue-health">
        {check.available ? 'Moving' : 'Stalled'}
      </Badge>
      {check.problem !== null && <span className="text-xs text-muted-foreground">{check.problem}</span>}
    </div>
  );
}

function QueueRows({ status, check }: { status: QueueStatus; check: QueueCheck | undefined }) {
  return (
    <>
      <TableRow data-testid="queue-row" data-queue={status.queue}>
        <TableCell className="font-mono text-xs font-medium">{status.queue}</TableCell>
        <TableCell data-column="waiting">{formatNumber(status.waiting)}</TableCell>
        <TableCell data-column="active">{formatNumber(status.active)}</TableCell>
        <TableCell data-column="delayed">{formatNumber(status.delayed)}</TableCell>
        <TableCell data-column="completed">{formatNumber(status.completed)}</TableCell>
        <TableCell data-column="failed" className={status.failed > 0 ? 'font-semibold text-destructive' : ''}>
          {formatNumber(status.failed)}
        </TableCell>
        <TableCell data-column="workers">{formatNumber(status.workers)}</TableCell>
        <TableCell>
          <QueueHealth check={check} />
        </TableCell>
      </TableRow>
      {status.failedJobs.length > 0 && (
        <TableRow>
          <TableCell colSpan={8}>
            <ul className="space-y-2" aria-label={`Failed jobs of ${status.queue}`}>
              {status.failedJobs.map((job) => (
                <FailedJobRow key={job.id} queue={status.queue} job={job} />
              ))}
            </ul>
          </TableCell>
        </TableRow>
      )}
    </>
  );
}

/** Every queue's jobs, live from BullMQ, with the monitor's verdict and the failed jobs to act on. */
export function QueuesPanel({ checks }: { checks: readonly QueueCheck[] }) {
  const queues = useQuery(queuesQuery);
  return (
    <SectionCard
      title="Queues"
      description="Jobs per queue, refreshed every 10 seconds. Failed jobs can be retried or removed; each action is logged with your name."
    >
      <QueryBody query={queues} loading={t.loading} failure={t.queuesFailed}>
        {(data) => (
          <DataTable
            data-testid="queues"
            headings={['Queue', 'Waiting', 'Active', 'Delayed', 'Completed', 'Failed', 'Workers', 'Health']}
          >
            {data.queues.map((status) => (
              <QueueRows
                key={status.queue}
                status={status}
                check={checks.find((c) => c.queue === status.queue)}
              />
            ))}
          </DataTable>
        )}
      </QueryBody>
    </SectionCard>
  );
}
