import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@sprout/ui';
import type { FormEvent, ReactNode } from 'react';

/**
 * A dialog around one form: title, description, the fields, then Cancel and the submit button.
 * `footer` takes the buttons' place (a confirmation the form asks for, say).
 */
export function FormDialog({
  open,
  onOpenChange,
  testId,
  title,
  description,
  formId,
  onSubmit,
  submitLabel,
  submitDisabled,
  footer,
  children,
}: {
  open: boolean;
  /** Also called with false by Cancel. */
  onOpenChange: (open: boolean) => void;
  testId: string;
  title: string;
  description: string;
  formId: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  submitDisabled: boolean;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid={testId}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" id={formId}>
          {children}
        </form>
        {footer ?? (
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" form={formId} disabled={submitDisabled}>
              {submitLabel}
            </Button>
          </DialogFooter>
        )}
      </DialogContent>
    </Dialog>
  );
}
