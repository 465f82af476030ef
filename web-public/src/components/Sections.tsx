import { Card, CardContent, CardHeader, CardTitle, cn } from '@sprout/ui';
import type { ReactNode } from 'react';

/**
 * A section of a marketing page under its centred title (which names it, by `titleId`); a `band`
 * section is shaded across the whole width.
 */
export function PageSection({
  titleId,
  title,
  band = false,
  width = 'max-w-6xl',
  children,
}: {
  titleId: string;
  title: string;
  band?: boolean;
  width?: 'max-w-6xl' | 'max-w-4xl';
  children: ReactNode;
}) {
  const column = cn('mx-auto px-4 py-16 sm:px-6', width);
  const content = (
    <>
      <h2 id={titleId} className="text-center text-3xl font-bold tracking-tight text-brand-dark">
        {title}
      </h2>
      {children}
    </>
  );
  return band ? (
    <section aria-labelledby={titleId} className="bg-muted/60">
      <div className={column}>{content}</div>
    </section>
  ) : (
    <section aria-labelledby={titleId} className={column}>
      {content}
    </section>
  );
}

/** A card of a grid of equal-height cards: an icon above the title, then the text. */
export function IconCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li>
      <Card className="h-full">
        <CardHeader>
          {icon}
          <CardTitle className="mt-2">{title}</CardTitle>
        </CardHeader>
        <CardContent>{children}</CardContent>
      </Card>
    </li>
  );
}
