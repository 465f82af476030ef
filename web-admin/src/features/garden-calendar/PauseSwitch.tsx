import { ConfirmDialog, Label, Switch, serverMessage, toast } from '@sprout/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { calendarPauseMutation } from './queries';
import { calendarTexts as t } from './texts';

/** The switch that holds every tip; pausing is confirmed first, resuming is not (it only lets tips go). */
export function PauseSwitch({ paused }: { paused: boolean | undefined }) {
  const id = useId();
  const queryClient = useQueryClient();
  const mutation = useMutation(calendarPauseMutation(queryClient));
  const [confirming, setConfirming] = useState(false);

  const change = (next: boolean) =>
    mutation.mutate(
      { body: { paused: next } },
      {
        onSuccess: ({ paused: now }) => {
          setConfirming(false);
          toast({
            title: now ? t.pausedToast : t.resumedToast,
            description: now ? t.pausedToastDescription : t.resumedToastDescription,
          });
        },
        onError: (error) => {
          setConfirming(false);
          toast({ variant: 'destructive', title: t.pauseFailed, description: serverMessage(error, '') });
        },
      },
    );

  return (
    <div className="rounded-lg border border-border bg-card p-3" data-testid="calendar-pause">
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={id}>{t.pauseLabel}</Label>
        <Switch
          id={id}
          checked={paused ?? false}
          disabled={paused === undefined || mutation.isPending}
          onCheckedChange={(next) => (next ? setConfirming(true) : change(false))}
          aria-describedby={`${id}-state`}
          data-testid="calendar-pause-switch"
        />
      </div>
      <p
        id={`${id}-state`}
        className="mt-1.5 text-xs text-muted-foreground"
        data-testid="calendar-pause-state"
      >
        {paused ? t.pausedState : t.runningState}
      </p>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t.pauseConfirmTitle}
        description={t.pauseConfirmDescription}
        confirmLabel={t.pauseConfirm}
        pendingLabel={t.pausing}
        pending={mutation.isPending}
        onConfirm={() => change(true)}
        testId="calendar-pause-confirm"
      />
    </div>
  );
}
