import { Table, TableBody, TableHead, TableHeader, TableRow } from '@sprout/ui';
import type { ComponentProps, ReactNode } from 'react';

/** A column's heading: its text, or its content and classes ('text-right' over figures). */
export type Heading = string | { label: ReactNode; className?: string };

/** A table's header row, one TableHead per heading; `className` styles the row. */
export function TableHeadings({ headings, className }: { headings: readonly Heading[]; className?: string }) {
  return (
    <TableHeader>
      <TableRow className={className}>
        {headings.map((heading, index) =>
          typeof heading === 'string' ? (
            <TableHead key={index}>{heading}</TableHead>
          ) : (
            <TableHead key={index} className={heading.className}>
              {heading.label}
            </TableHead>
          ),
        )}
      </TableRow>
    </TableHeader>
  );
}

/** A table with its header row; the children are the body's rows. */
export function DataTable({
  headings,
  headRowClassName,
  children,
  ...props
}: ComponentProps<'table'> & { headings: readonly Heading[]; headRowClassName?: string }) {
  return (
    <Table {...props}>
      <TableHeadings headings={headings} className={headRowClassName} />
      <TableBody>{children}</TableBody>
    </Table>
  );
}

/** A right-aligned heading, over figures. */
export const right = (label: string): Heading => ({ label, className: 'text-right' });
