import {
  Badge,
  endpointQuery,
  formatDateTime,
  formatNumber,
  formatPhoneNumber,
  TableCell,
  TableRow,
} from '@sprout/ui';
import { api } from '@sprout/contracts';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DataTable, right } from '../../components/DataTable';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { limitInWords, resumesInWords } from '../users/rate-limit';

/** Polling of the rate-limited senders card. */
const SENDER_LIMITS_REFRESH_MS = 30_000;

/**
 * Senders who texted faster than the per-sender reply limits allow: they got one notice, then no
 * reply and no model call until the window passed. Limited now first, then the last 24 hours.
 */
export function RateLimitedSenders() {
  const senders = useQuery({
    ...endpointQuery(api.users.senderLimits, {}, { failureMessage: 'Failed to fetch rate-limited senders' }),
    refetchInterval: SENDER_LIMITS_REFRESH_MS,
  });
  return (
    <SectionCard
      title="Rate-limited senders"
      description="Phones over a per-sender reply limit: one notice, then no replies until the window passes. STOP and HELP are always answered."
      testId="rate-limited-senders"
    >
      <QueryBody
        query={senders}
        loading="Loading rate-limited senders..."
        failure={
          <p role="alert" className="text-sm text-destructive">
            Failed to fetch rate-limited senders
          </p>
        }
        isEmpty={(data) => data.senders.length === 0}
        empty={
          <p className="text-sm text-muted-foreground">
            No sender has been rate limited in the last 24 hours.
          </p>
        }
      >
        {(data) => (
          <DataTable headings={['Phone', 'Limit', 'Since', 'Until', right('Unanswered')]}>
            {data.senders.map((sender) => (
              <TableRow key={sender.userId} data-testid="rate-limited-sender">
                <TableCell className="whitespace-nowrap">
                  <Link
                    to={`/admin/users?search=${encodeURIComponent(sender.phoneNumber)}`}
                    className="font-medium underline-offset-4 hover:underline"
                  >
                    {formatPhoneNumber(sender.phoneNumber)}
                  </Link>{' '}
                  {sender.active ? <Badge variant="destructive">Rate limited</Badge> : null}
                </TableCell>
                <TableCell>{limitInWords(sender)}</TableCell>
                <TableCell className="whitespace-nowrap">{formatDateTime(sender.limitedAt)}</TableCell>
                <TableCell className="whitespace-nowrap">{resumesInWords(sender)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatNumber(sender.refusedTexts)}</TableCell>
              </TableRow>
            ))}
          </DataTable>
        )}
      </QueryBody>
    </SectionCard>
  );
}
