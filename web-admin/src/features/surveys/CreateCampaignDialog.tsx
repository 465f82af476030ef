import { DEFAULT_SURVEY_URL } from '@sprout/contracts';
import { Label, Switch } from '@sprout/ui';
import { type FormEvent, useState } from 'react';
import { FormDialog } from '../../components/FormDialog';
import { TextField } from '../../components/FormField';
import { api, SURVEY_FAILURES } from '@sprout/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { surveyMutation } from './queries';
import { endOfDayIso, todayInput } from './end-date';
import { surveyTexts } from './texts';

interface Fields {
  name: string;
  surveyUrl: string;
  endDate: string;
  targetExistingUsers: boolean;
  targetNewUsers: boolean;
}

/** The URL pre-filled with a default form link, both audience switches on. */
const INITIAL: Fields = {
  name: '',
  surveyUrl: DEFAULT_SURVEY_URL,
  endDate: '',
  targetExistingUsers: true,
  targetNewUsers: true,
};

/** The create dialog; a refused or failed creation is the page's error toast. */
export function CreateCampaignDialog({
  open,
  onOpenChange,
  onFailed,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onFailed: (error: unknown) => void;
}) {
  const create = useMutation(surveyMutation(useQueryClient(), api.surveys.create, SURVEY_FAILURES.create));
  const [fields, setFields] = useState<Fields>(INITIAL);
  const ready = fields.name.trim() !== '' && fields.surveyUrl.trim() !== '';

  const close = (next: boolean) => {
    if (!next) setFields(INITIAL);
    onOpenChange(next);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || create.isPending) return;
    create.mutate(
      {
        body: {
          name: fields.name.trim(),
          surveyUrl: fields.surveyUrl.trim(),
          endDate: endOfDayIso(fields.endDate),
          targetNewUsers: fields.targetNewUsers,
          targetExistingUsers: fields.targetExistingUsers,
        },
      },
      { onSuccess: () => close(false), onError: onFailed },
    );
  }

  const set =
    <K extends keyof Fields>(key: K) =>
    (value: Fields[K]) =>
      setFields((current) => ({ ...current, [key]: value }));

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      testId="create-campaign-dialog"
      title="Create Survey Campaign"
      description="The survey link is added to a reply once per gardener while the campaign is live."
      formId="create-campaign-form"
      onSubmit={onSubmit}
      submitLabel={create.isPending ? 'Creating...' : surveyTexts.createCampaign}
      submitDisabled={!ready || create.isPending}
    >
      <TextField
        id="campaign-name"
        label="Campaign Name"
        placeholder="e.g. Spring planting check-in"
        maxLength={200}
        aria-required="true"
        value={fields.name}
        onValueChange={set('name')}
      />
      <TextField
        id="campaign-survey-url"
        label="Survey URL"
        type="url"
        inputMode="url"
        maxLength={200}
        aria-required="true"
        value={fields.surveyUrl}
        onValueChange={set('surveyUrl')}
      />
      <TextField
        id="campaign-end-date"
        label="End Date"
        type="date"
        min={todayInput()}
        value={fields.endDate}
        onValueChange={set('endDate')}
      />
      <fieldset className="grid gap-3">
        <legend className="mb-2 text-sm font-medium">Target Audience</legend>
        <AudienceSwitch
          id="target-existing-users"
          label={surveyTexts.existingUsers}
          hint={surveyTexts.existingUsersHint}
          checked={fields.targetExistingUsers}
          onChange={set('targetExistingUsers')}
        />
        <AudienceSwitch
          id="target-new-users"
          label={surveyTexts.newUsers}
          hint={surveyTexts.newUsersHint}
          checked={fields.targetNewUsers}
          onChange={set('targetNewUsers')}
        />
      </fieldset>
    </FormDialog>
  );
}

function AudienceSwitch({
  id,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-center justify-between gap-4 rounded-lg border border-border p-3">
      <div>
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} aria-describedby={`${id}-hint`} />
    </div>
  );
}
