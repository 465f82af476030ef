import { DEFAULT_MAX_TOKENS } from '@sprout/contracts';
import { Button, serverMessage, toast } from '@sprout/ui';
import { type FocusEvent, type FormEvent, useState } from 'react';
import { FormDialog } from '../../components/FormDialog';
import { TextField } from '../../components/FormField';
import { api } from '@sprout/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { modelMutation, openAiModelsQuery } from './queries';
import { MODEL_NUMBER_FIELDS, parseMaxTokens, parsePrice } from './model-form';
import { modelTexts, modelToasts } from './texts';

interface Fields {
  name: string;
  inputPricePerMillion: string;
  outputPricePerMillion: string;
  maxTokens: string;
}

const EMPTY: Fields = {
  name: '',
  inputPricePerMillion: '0',
  outputPricePerMillion: '0',
  maxTokens: String(DEFAULT_MAX_TOKENS),
};

/**
 * Add/Update AI Model: the provider's model list is loaded when the name field gains
 * focus, and a name it lacks is pointed out. Adding a name that exists updates that model and
 * makes it visible again.
 */
export function AddModelDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useMutation(modelMutation(useQueryClient(), api.models.create));
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [listWanted, setListWanted] = useState(false);
  const valid = useQuery(openAiModelsQuery(listWanted));
  // The name the admin chose to save although it could not be checked.
  const [confirmedName, setConfirmedName] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const name = fields.name.trim();
  const known = valid.data?.models.includes(name) ?? false;
  // Only the provider's own list says what OpenAI has (the server then refuses other names).
  const notFound = name !== '' && valid.data?.namesChecked === true && !known;
  // Without a key (or the provider's list) the server saves any name: a typo goes unnoticed.
  const unchecked = listWanted && !valid.isPending && valid.data?.namesChecked !== true;
  const uncheckedReason =
    valid.data?.source === 'price-table' ? modelTexts.namesUncheckedNoKey : modelTexts.namesUncheckedNoList;

  const close = (next: boolean) => {
    if (!next) {
      setFields(EMPTY);
      setConfirming(false);
      setConfirmedName(null);
    }
    onOpenChange(next);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (name === '') return;
    if (valid.data?.namesChecked !== true && !known && confirmedName !== name) {
      setConfirming(true);
      return;
    }
    save();
  }

  function save() {
    create.mutate(
      {
        body: {
          name,
          displayName: name,
          inputPricePerMillion: parsePrice(fields.inputPricePerMillion),
          outputPricePerMillion: parsePrice(fields.outputPricePerMillion),
          maxTokens: parseMaxTokens(fields.maxTokens),
          isActive: true,
          isVisible: true,
        },
      },
      {
        onSuccess: (saved) => {
          toast(
            saved.created
              ? {
                  title: modelToasts.added,
                  description: `${saved.model.name} can now be made live or fallback.`,
                }
              : {
                  title: modelToasts.updated,
                  description: `${saved.model.name} was updated and is visible again.`,
                },
          );
          close(false);
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: modelToasts.addFailed,
            description: serverMessage(error, modelToasts.addFailedFallback),
          }),
      },
    );
  }

  const set = (key: keyof Fields) => (value: string) =>
    setFields((current) => ({ ...current, [key]: value }));

  function saveUnchecked() {
    setConfirmedName(name);
    setConfirming(false);
    save();
  }

  /** A number field that shows the parsed number again when it loses focus. */
  const numberField = (key: Exclude<keyof Fields, 'name'>, parse: (typed: string) => number) => ({
    type: 'number',
    min: 0,
    value: fields[key],
    onValueChange: set(key),
    onBlur: (e: FocusEvent<HTMLInputElement>) => set(key)(String(parse(e.target.value))),
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      testId="add-model-dialog"
      title="Add/Update AI Model"
      description="Prices are dollars per million tokens. A name that already exists is updated and shown again."
      formId="add-model-form"
      onSubmit={onSubmit}
      submitLabel="Add Model"
      submitDisabled={name === '' || create.isPending}
      footer={
        confirming ? (
          <div
            role="alert"
            className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
            data-testid="confirm-unchecked-name"
          >
            <p>
              <span className="font-semibold">Save &ldquo;{name}&rdquo; as typed?</span>{' '}
              {modelTexts.unknownNameQuestion}
            </p>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="outline" onClick={() => setConfirming(false)}>
                Check the Name
              </Button>
              <Button onClick={saveUnchecked} disabled={create.isPending}>
                Save Anyway
              </Button>
            </div>
          </div>
        ) : undefined
      }
    >
      <TextField
        id="model-name"
        label="Model Name"
        placeholder="e.g. gpt-4o-mini"
        autoComplete="off"
        list="valid-model-names"
        maxLength={100}
        aria-required="true"
        aria-describedby="model-name-hint"
        value={fields.name}
        onFocus={() => setListWanted(true)}
        onValueChange={(value) => {
          setConfirming(false);
          set('name')(value);
        }}
      >
        <datalist id="valid-model-names">
          {(valid.data?.models ?? []).map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        <p id="model-name-hint" className="min-h-5 text-xs" aria-live="polite" data-testid="model-name-hint">
          {listWanted && valid.isPending ? (
            <span className="text-muted-foreground">{modelTexts.loadingValidModels}</span>
          ) : notFound ? (
            <span className="text-destructive">{modelTexts.modelNotFound}</span>
          ) : unchecked ? (
            <span className="text-amber-700" data-testid="model-names-unchecked">
              {uncheckedReason}
            </span>
          ) : null}
        </p>
      </TextField>
      <div className="grid gap-4 sm:grid-cols-3">
        {MODEL_NUMBER_FIELDS.map(({ key, parse, rowLabel: _, ...field }) => (
          <TextField key={key} {...field} {...numberField(key, parse)} />
        ))}
      </div>
    </FormDialog>
  );
}
