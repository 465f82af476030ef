import type { IssueSeverity, ValidationResult } from '@sprout/contracts';
import { Badge, type BadgeProps, DetailRow, formatConfidence, formatDateTime } from '@sprout/ui';
import { CircleCheck, CircleX } from 'lucide-react';
import type { ReactNode } from 'react';
import { humanize } from './tester-texts';

const SEVERITY_BADGE: Record<IssueSeverity, BadgeProps['variant']> = {
  high: 'destructive',
  medium: 'secondary',
  low: 'outline',
};

export function SectionHeading({ children }: { children: ReactNode }) {
  return <h3 className="mt-4 mb-2 text-sm font-semibold">{children}</h3>;
}

/** A validation result: valid or invalid, response type, confidence, issues, corrections and time. */
export function ValidationDetails({
  result,
  validatedAt,
}: {
  result: ValidationResult;
  validatedAt: string;
}) {
  return (
    <div data-testid="validation-details">
      <dl>
        <DetailRow label="Result" testId="validation-status">
          {result.isValid ? (
            <Badge className="gap-1">
              <CircleCheck className="size-3.5" aria-hidden="true" />
              Valid
            </Badge>
          ) : (
            <Badge variant="destructive" className="gap-1">
              <CircleX className="size-3.5" aria-hidden="true" />
              Invalid
            </Badge>
          )}
        </DetailRow>
        <DetailRow label="Response type" testId="validation-response-type">
          <code className="rounded bg-muted px-1.5 py-0.5 text-xs" title={humanize(result.responseType)}>
            {result.responseType}
          </code>
        </DetailRow>
        <DetailRow label="Confidence" testId="validation-confidence">
          {formatConfidence(result.confidence)}
        </DetailRow>
        <DetailRow label="Validated at" testId="validation-time">
          <time dateTime={validatedAt}>{formatDateTime(validatedAt)}</time>
        </DetailRow>
      </dl>

      <SectionHeading>Issues</SectionHeading>
      {result.issues.length === 0 ? (
        <p className="text-sm text-muted-foreground">No issues found.</p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="validation-issues">
          {result.issues.map((issue) => (
            <li
              key={`${issue.type}:${issue.message}`}
              className="flex flex-col gap-1 rounded-md border border-border p-3 text-sm"
              data-testid="validation-issue"
            >
              <span className="flex flex-wrap items-center gap-2">
                <code className="rounded bg-muted px-1.5 py-0.5 text-xs" data-testid="validation-issue-type">
                  {issue.type}
                </code>
                <Badge
                  variant={SEVERITY_BADGE[issue.severity] ?? 'outline'}
                  data-testid="validation-issue-severity"
                >
                  {issue.severity}
                </Badge>
              </span>
              <span data-testid="validation-issue-message">{issue.message}</span>
            </li>
          ))}
        </ul>
      )}

      <SectionHeading>Suggested corrections</SectionHeading>
      {result.corrections.length === 0 ? (
        <p className="text-sm text-muted-foreground">No corrections suggested.</p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="validation-corrections">
          {result.corrections.map((correction) => (
            <li key={correction}>{correction}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
