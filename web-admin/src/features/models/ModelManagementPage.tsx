import { api, type ModelDto } from '@sprout/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, callEndpoint, ConfirmDialog, serverMessage, toast } from '@sprout/ui';
import { Cpu, ExternalLink, Plus, Save } from 'lucide-react';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryBody } from '../../components/QueryBody';
import { SectionCard } from '../../components/SectionCard';
import { useTestDataMode } from '../../test-data-mode';
import { modelMutation, modelStatsQuery, modelsQuery, saveAllModelsMutation } from './queries';
import { AddModelDialog } from './AddModelDialog';
import { ChangeLiveModelDialog, type LiveChange } from './ChangeLiveModelDialog';
import { changedFields, draftOf, hasChanges, type ModelDraft } from './model-form';
import { type ModelSort, nextModelSort } from './model-sorting';
import { ModelTable } from './ModelTable';
import { ModelUsageTable } from './ModelUsageTable';
import { SpendingBanner } from './SpendingBanner';
import { SpendingLimitCard } from './SpendingLimitCard';
import { modelTexts, modelToasts } from './texts';

const failed = (error: unknown, fallback: string) =>
  toast({
    variant: 'destructive',
    title: modelToasts.saveFailed,
    description: serverMessage(error, fallback),
  });

/**
 * /admin/model-management: the models with their prices and roles,
 * row and bulk edits, Set Live through a cost confirmation, Set Fallback, the daily spend banner
 * and limit, and usage per model.
 */
export default function ModelManagementPage() {
  const queryClient = useQueryClient();
  const models = useQuery(modelsQuery);
  const stats = useQuery(modelStatsQuery(useTestDataMode().showTestData));
  const update = useMutation(modelMutation(queryClient, api.models.update));
  const saveAll = useMutation(saveAllModelsMutation(queryClient));
  const setLive = useMutation(modelMutation(queryClient, api.models.setLive));
  const setFallback = useMutation(modelMutation(queryClient, api.models.setFallback));
  const remove = useMutation(modelMutation(queryClient, api.models.remove));

  const [sort, setSort] = useState<ModelSort | null>(null);
  // Rows in edit mode and what was typed in them, by model id, until saved or cancelled.
  const [drafts, setDrafts] = useState<Record<string, ModelDraft>>({});
  const [busyId, setBusyId] = useState<string | null>(null);
  const [addOpen, setAddOpen] = useState(false);
  const [liveChange, setLiveChange] = useState<(LiveChange & { model: ModelDto }) | null>(null);
  // The model whose removal waits for the admin's confirmation.
  const [removing, setRemoving] = useState<ModelDto | null>(null);

  const list = models.data ?? [];
  const pending = list.flatMap((model) => {
    const draft = drafts[model.id];
    const changes = draft === undefined ? {} : changedFields(model, draft);
    return hasChanges(changes) ? [{ id: model.id, changes }] : [];
  });

  const dropDrafts = (ids: readonly string[]) =>
    setDrafts((current) => Object.fromEntries(Object.entries(current).filter(([id]) => !ids.includes(id))));

  const whileBusy = (model: ModelDto) => {
    setBusyId(model.id);
    return { onSettled: () => setBusyId(null) };
  };

  function saveRow(model: ModelDto) {
    const draft = drafts[model.id];
    if (draft === undefined) return;
    const changes = changedFields(model, draft);
    if (!hasChanges(changes)) {
      dropDrafts([model.id]);
      return;
    }
    update.mutate(
      { params: { id: model.id }, body: changes },
      {
        ...whileBusy(model),
        onSuccess: () => {
          dropDrafts([model.id]);
          toast({ title: modelToasts.updated, description: `${model.name} was saved.` });
        },
        onError: (error) => failed(error, modelToasts.updateFailedFallback),
      },
    );
  }

  function saveChanges() {
    saveAll.mutate(pending, {
      onSuccess: (failures) => {
        const failedIds = failures.map((f) => f.id);
        dropDrafts(pending.map((p) => p.id).filter((id) => !failedIds.includes(id)));
        const first = failures[0];
        if (first !== undefined) failed(first.error, modelToasts.updateOneFailedFallback(first.id));
        const saved = pending.length - failures.length;
        if (saved > 0) {
          toast({
            title: modelToasts.updated,
            description: `Saved changes to ${saved} ${saved === 1 ? 'model' : 'models'}.`,
          });
        }
      },
    });
  }

  function makeLive(model: ModelDto) {
    setLive.mutate(
      { params: { id: model.id } },
      {
        ...whileBusy(model),
        onSuccess: () => {
          setLiveChange(null);
          toast({ title: modelToasts.primaryUpdated, description: `${model.name} now answers texts.` });
        },
        onError: (error) => failed(error, modelToasts.updateFailedFallback),
      },
    );
  }

  /** With a live model, its cost impact is shown for confirmation first; without, it is set directly. */
  async function onSetLive(model: ModelDto) {
    const current = list.find((m) => m.isLive);
    if (current === undefined) {
      makeLive(model);
      return;
    }
    setBusyId(model.id);
    try {
      const preview = await callEndpoint(api.models.costImpact, {
        query: { fromModelId: current.id, toModelId: model.id },
      });
      setLiveChange({ preview, swapsFallback: model.isFallback, model });
    } catch (error) {
      failed(error, modelToasts.updateFailedFallback);
    } finally {
      setBusyId(null);
    }
  }

  function onSetFallback(model: ModelDto) {
    setFallback.mutate(
      { params: { id: model.id } },
      {
        ...whileBusy(model),
        onSuccess: () =>
          toast({
            title: modelToasts.fallbackSet,
            description: `${model.name} answers when the live model fails.`,
          }),
        onError: (error) => failed(error, modelToasts.updateFailedFallback),
      },
    );
  }

  function removeModel(model: ModelDto) {
    remove.mutate(
      { params: { id: model.id } },
      {
        ...whileBusy(model),
        onSuccess: () => {
          setRemoving(null);
          dropDrafts([model.id]);
          toast({ title: modelToasts.removed, description: `${model.name} is hidden from the list.` });
        },
        onError: (error) => failed(error, modelToasts.updateFailedFallback),
      },
    );
  }

  return (
    <>
      <PageHeader
        title="Model Management"
        description="Which AI models answer texts, what they cost, and which one is live."
      >
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" asChild>
            <a href={modelTexts.pricingUrl} target="_blank" rel="noopener noreferrer">
              <ExternalLink aria-hidden="true" />
              OpenAI Pricing
            </a>
          </Button>
          {pending.length > 0 && (
            <Button
              variant="secondary"
              onClick={saveChanges}
              disabled={saveAll.isPending}
              data-testid="save-changes"
            >
              <Save aria-hidden="true" />
              Save Changes
            </Button>
          )}
          <Button onClick={() => setAddOpen(true)}>
            <Plus aria-hidden="true" />
            Add Model
          </Button>
        </div>
      </PageHeader>
      {stats.data && <SpendingBanner stats={stats.data} />}
      <div className="flex flex-col gap-6">
        <SectionCard
          title="AI Models"
          description="Prices in dollars per million tokens. The live model answers texts; the fallback answers when it fails."
        >
          <QueryBody
            query={models}
            loading={modelTexts.loading}
            failure={modelTexts.loadFailed}
            empty={
              <EmptyState
                icon={Cpu}
                title={modelTexts.noModelsTitle}
                hint={modelTexts.noModelsHint}
                testId="models-empty"
              />
            }
          >
            {(data) => (
              <ModelTable
                models={data}
                sort={sort}
                onSort={(key) => setSort((current) => nextModelSort(current, key))}
                drafts={drafts}
                busyId={busyId}
                onEdit={(model) => setDrafts((current) => ({ ...current, [model.id]: draftOf(model) }))}
                onDraftChange={(model, draft) => setDrafts((current) => ({ ...current, [model.id]: draft }))}
                onSave={saveRow}
                onCancel={(model) => dropDrafts([model.id])}
                onRemove={setRemoving}
                onSetLive={(model) => void onSetLive(model)}
                onSetFallback={onSetFallback}
              />
            )}
          </QueryBody>
        </SectionCard>
        {stats.data && (
          <div className="grid gap-6 2xl:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
            <SpendingLimitCard stats={stats.data} />
            <ModelUsageTable stats={stats.data.stats} />
          </div>
        )}
      </div>
      <AddModelDialog open={addOpen} onOpenChange={setAddOpen} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={`Remove ${removing?.name ?? 'model'}?`}
        description={
          <>
            <p>
              It is hidden from this list and can no longer be made live or fallback. Adding the same name
              again brings it back.
            </p>
            {removing?.isFallback && (
              <p className="mt-2 font-medium text-foreground">
                It is the fallback model: replies have no fallback until you set another.
              </p>
            )}
          </>
        }
        confirmLabel="Remove Model"
        pendingLabel="Removing..."
        pending={remove.isPending}
        destructive
        onConfirm={() => removing && removeModel(removing)}
        testId="remove-model-dialog"
      />
      <ChangeLiveModelDialog
        change={liveChange}
        pending={setLive.isPending}
        onCancel={() => setLiveChange(null)}
        onConfirm={() => liveChange && makeLive(liveChange.model)}
      />
    </>
  );
}
