import { Card, CardContent, CardHeader, CardTitle } from '@sprout/ui';
import type { ComponentProps, ReactNode } from 'react';

/**
 * A small card whose title shares its row with `aside` (an icon, a badge). Any other prop is the
 * card's (its test id, data attributes).
 */
export function HeadedCard({
  title,
  heading: Heading,
  titleClassName,
  aside,
  contentClassName,
  children,
  ...card
}: Omit<ComponentProps<typeof Card>, 'title'> & {
  title: ReactNode;
  heading: 'h2' | 'h3';
  titleClassName: string;
  aside: ReactNode;
  contentClassName?: string;
  children: ReactNode;
}) {
  return (
    <Card {...card}>
      <CardHeader className="flex-row items-center justify-between gap-2 pb-2">
        <CardTitle asChild className={titleClassName}>
          <Heading>{title}</Heading>
        </CardTitle>
        {aside}
      </CardHeader>
      <CardContent className={contentClassName}>{children}</CardContent>
    </Card>
  );
}
