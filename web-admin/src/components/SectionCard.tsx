import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@sprout/ui';
import type { ReactNode } from 'react';

/**
 * A titled card holding one section of a page (its title an h2, or an h3 inside a tab). An
 * `action` (a button, a search box) sits beside the title and description.
 */
export function SectionCard({
  title,
  description,
  testId,
  headingLevel = 2,
  action,
  className,
  headerClassName,
  contentClassName,
  live = false,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  testId?: string;
  headingLevel?: 2 | 3;
  action?: ReactNode;
  className?: string;
  headerClassName?: string;
  contentClassName?: string;
  /** The content changes as results come in: screen readers read it out. */
  live?: boolean;
  children: ReactNode;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const heading = (
    <>
      <CardTitle asChild>
        <Heading>{title}</Heading>
      </CardTitle>
      {description !== undefined && <CardDescription>{description}</CardDescription>}
    </>
  );
  return (
    <Card className={className} data-testid={testId}>
      <CardHeader className={headerClassName}>
        {action === undefined ? (
          heading
        ) : (
          <>
            <div>{heading}</div>
            {action}
          </>
        )}
      </CardHeader>
      <CardContent className={contentClassName} aria-live={live ? 'polite' : undefined}>
        {children}
      </CardContent>
    </Card>
  );
}
