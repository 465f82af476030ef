import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@sprout/ui';
import type { ReactNode } from 'react';

/** A titled card holding one section of a page (its title an h2). */
export function SectionCard({
  title,
  description,
  testId,
  children,
}: {
  title: string;
  description?: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle asChild>
          <h2>{title}</h2>
        </CardTitle>
        {description !== undefined && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
