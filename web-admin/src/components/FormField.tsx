import { Input, Label } from '@sprout/ui';
import type { ComponentProps, ReactNode } from 'react';

/** A form control under its label; `className` lays the two out (a tight grid by default). */
export function FormField({
  id,
  label,
  className = 'grid gap-1.5',
  children,
}: {
  id: string;
  label: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/**
 * A labelled text input: `onValueChange` gets what was typed; `children` (a hint, a datalist)
 * follow the input. Any other prop is the input's.
 */
export function TextField({
  id,
  label,
  fieldClassName,
  onValueChange,
  children,
  ...input
}: Omit<ComponentProps<typeof Input>, 'onChange' | 'children'> & {
  id: string;
  label: ReactNode;
  fieldClassName?: string;
  onValueChange: (value: string) => void;
  children?: ReactNode;
}) {
  return (
    <FormField id={id} label={label} className={fieldClassName}>
      <Input id={id} onChange={(event) => onValueChange(event.target.value)} {...input} />
      {children}
    </FormField>
  );
}
