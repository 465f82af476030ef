import type { ModelDto } from '@sprout/contracts';
import {
  Badge,
  Button,
  type ButtonProps,
  formatNumber,
  Input,
  Switch,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@sprout/ui';
import { Check, type LucideIcon, Pencil, Trash2, X } from 'lucide-react';
import { useMemo } from 'react';
import { formatPrice, MODEL_NUMBER_FIELDS, type ModelDraft } from './model-form';
import { type ModelSort, type ModelSortKey, sortModels } from './model-sorting';
import { SortableHead } from '../../components/SortableHead';

const SORTABLE: ReadonlyArray<{ key: ModelSortKey; label: string; align?: 'right' }> = [
  { key: 'name', label: 'Model' },
  { key: 'inputPricePerMillion', label: 'Input Price', align: 'right' },
  { key: 'outputPricePerMillion', label: 'Output Price', align: 'right' },
  { key: 'maxTokens', label: 'Max Tokens', align: 'right' },
];

interface ModelRowActions {
  onEdit: (model: ModelDto) => void;
  onDraftChange: (model: ModelDto, draft: ModelDraft) => void;
  onSave: (model: ModelDto) => void;
  onCancel: (model: ModelDto) => void;
  onRemove: (model: ModelDto) => void;
  onSetLive: (model: ModelDto) => void;
  onSetFallback: (model: ModelDto) => void;
}

/**
 * The models: sortable Model, Input Price, Output Price and Max Tokens, then Status and Actions.
 * A row in edit mode has inline inputs and save, cancel and delete; the others edit, Set Live and
 * Set Fallback.
 */
export function ModelTable({
  models,
  sort,
  onSort,
  drafts,
  busyId,
  ...actions
}: {
  models: readonly ModelDto[];
  sort: ModelSort | null;
  onSort: (key: ModelSortKey) => void;
  /** Rows in edit mode, with what was typed. */
  drafts: Readonly<Record<string, ModelDraft>>;
  /** A row whose action is in progress. */
  busyId: string | null;
} & ModelRowActions) {
  const rows = useMemo(() => sortModels(models, sort), [models, sort]);
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full caption-bottom text-sm [&_td]:px-3 [&_th]:px-3" data-testid="models-table">
        <caption className="sr-only">
          AI models with their prices per million tokens, status and actions
        </caption>
        <TableHeader className="bg-card">
          <TableRow className="hover:bg-transparent">
            {SORTABLE.map((column) => (
              <SortableHead key={column.key} column={column} sort={sort} onSort={onSort} />
            ))}
            <TableHead className="uppercase">Status</TableHead>
            <TableHead className="text-right uppercase">Actions</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((model) => (
            <ModelRow
              key={model.id}
              model={model}
              draft={drafts[model.id]}
              busy={busyId === model.id}
              {...actions}
            />
          ))}
        </TableBody>
      </table>
    </div>
  );
}

function StatusBadges({ model }: { model: ModelDto }) {
  return (
    <div className="flex gap-1" data-testid="model-status">
      {model.isLive && <Badge>Live</Badge>}
      {model.isFallback && <Badge variant="secondary">Fallback</Badge>}
      {model.isActive ? (
        <Badge variant="outline" className="border-emerald-300 text-emerald-800">
          Active
        </Badge>
      ) : (
        <Badge variant="outline" className="text-muted-foreground">
          Inactive
        </Badge>
      )}
    </div>
  );
}

function NumberField({
  label,
  value,
  step,
  max,
  onChange,
}: {
  label: string;
  value: string;
  step: number;
  max?: number;
  onChange: (value: string) => void;
}) {
  return (
    <Input
      type="number"
      inputMode="decimal"
      aria-label={label}
      min={0}
      max={max}
      step={step}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      className="ml-auto h-8 w-28 text-right"
    />
  );
}

/** A row's icon-only action; `label` names it for screen readers. */
function IconButton({
  label,
  icon: Icon,
  ...button
}: Omit<ButtonProps, 'size' | 'variant' | 'children'> & { label: string; icon: LucideIcon }) {
  return (
    <Button size="icon" variant="ghost" aria-label={label} {...button}>
      <Icon className="size-4" aria-hidden="true" />
    </Button>
  );
}

function ModelRow({
  model,
  draft,
  busy,
  onEdit,
  onDraftChange,
  onSave,
  onCancel,
  onRemove,
  onSetLive,
  onSetFallback,
}: { model: ModelDto; draft: ModelDraft | undefined; busy: boolean } & ModelRowActions) {
  const editing = draft !== undefined;
  const change = (fields: Partial<ModelDraft>) => {
    if (draft) onDraftChange(model, { ...draft, ...fields });
  };
  const name = model.displayName !== model.name ? `${model.displayName} (${model.name})` : model.name;
  return (
    <TableRow data-testid="model-row" data-model={model.name} data-editing={editing ? 'true' : undefined}>
      <TableCell data-column="name" data-value={model.name} className="font-medium whitespace-nowrap">
        {model.displayName}
        {model.displayName !== model.name && (
          <span className="block text-xs font-normal text-muted-foreground">{model.name}</span>
        )}
      </TableCell>
      {editing ? (
        <>
          {MODEL_NUMBER_FIELDS.map(({ key, rowLabel, step, max }) => (
            <TableCell key={key} className="text-right">
              <NumberField
                label={`${rowLabel} of ${model.name}`}
                step={step}
                max={max}
                value={draft[key]}
                onChange={(v) => change({ [key]: v })}
              />
            </TableCell>
          ))}
          <TableCell>
            <label className="inline-flex items-center gap-2 text-xs">
              <Switch
                checked={draft.isActive}
                onCheckedChange={(isActive) => change({ isActive })}
                aria-label={`${model.name} is active`}
              />
              {draft.isActive ? 'Active' : 'Inactive'}
            </label>
          </TableCell>
          <TableCell>
            <div className="flex justify-end gap-1">
              <IconButton label={`Save ${name}`} icon={Check} disabled={busy} onClick={() => onSave(model)} />
              <IconButton label={`Cancel editing ${name}`} icon={X} onClick={() => onCancel(model)} />
              <IconButton
                label={`Delete ${name}`}
                icon={Trash2}
                className="text-destructive hover:text-destructive"
                disabled={busy || model.isLive}
                title={model.isLive ? 'The live model cannot be removed' : undefined}
                onClick={() => onRemove(model)}
              />
            </div>
          </TableCell>
        </>
      ) : (
        <>
          <TableCell data-column="inputPricePerMillion" className="text-right tabular-nums">
            {formatPrice(model.inputPricePerMillion)}
          </TableCell>
          <TableCell data-column="outputPricePerMillion" className="text-right tabular-nums">
            {formatPrice(model.outputPricePerMillion)}
          </TableCell>
          <TableCell data-column="maxTokens" className="text-right tabular-nums">
            {formatNumber(model.maxTokens)}
          </TableCell>
          <TableCell>
            <StatusBadges model={model} />
          </TableCell>
          <TableCell>
            <div className="flex justify-end gap-1">
              <IconButton label={`Edit ${name}`} icon={Pencil} onClick={() => onEdit(model)} />
              <Button
                size="sm"
                variant="outline"
                disabled={busy || model.isLive || !model.isActive}
                onClick={() => onSetLive(model)}
              >
                Set Live
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={busy || model.isFallback || !model.isActive || model.isLive}
                title={model.isLive ? 'The fallback must be a different model than the live one' : undefined}
                onClick={() => onSetFallback(model)}
              >
                Set Fallback
              </Button>
            </div>
          </TableCell>
        </>
      )}
    </TableRow>
  );
}
