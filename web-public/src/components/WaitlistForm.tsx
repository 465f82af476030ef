import { Button, Input, Label, serverMessage, toast } from '@sprout/ui';
import { type FormEvent, useId, useState } from 'react';
import { useJoinWaitlist } from '../hooks/useJoinWaitlist';
import { waitlistRequest, waitlistToasts } from './waitlist';

export function WaitlistForm() {
  const [email, setEmail] = useState('');
  const [zipCode, setZipCode] = useState('');
  const join = useJoinWaitlist();
  const id = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const request = waitlistRequest(email, zipCode);
    if (!request) {
      toast(waitlistToasts.missing);
      return;
    }
    join.mutate(request, {
      onSuccess: (answer) => {
        if ('alreadyRegistered' in answer) {
          toast({ title: waitlistToasts.alreadyRegistered.title, description: answer.message });
        } else {
          toast(waitlistToasts.success);
        }
        setEmail('');
        setZipCode('');
      },
      onError: (error) => {
        toast({
          variant: 'destructive',
          title: waitlistToasts.failure.title,
          description: serverMessage(error, waitlistToasts.failure.fallback),
        });
      },
    });
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-4"
      data-testid="waitlist-form"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Join the beta waitlist
      </h2>
      <div className="grid gap-4 sm:grid-cols-[1fr_9rem]">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-email`}>Email</Label>
          <Input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            aria-required="true"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-zip`}>Zip code</Label>
          <Input
            id={`${id}-zip`}
            name="region"
            inputMode="numeric"
            autoComplete="postal-code"
            placeholder="94117"
            maxLength={10}
            aria-required="true"
            value={zipCode}
            onChange={(e) => setZipCode(e.target.value)}
          />
        </div>
      </div>
      <Button type="submit" size="lg" disabled={join.isPending}>
        {join.isPending ? 'Joining...' : 'Join the waitlist'}
      </Button>
      <p className="text-xs text-muted-foreground">
        We use your zip code to tune advice to your climate. No spam: one email when the beta opens.
      </p>
    </form>
  );
}
