import { MODEL_USAGE_DAYS, type ModelUsage } from '@sprout/contracts';
import { cn, formatNumber, TableCell, TableRow } from '@sprout/ui';
import type { ReactNode } from 'react';
import { DataTable, right } from '../../components/DataTable';
import { SectionCard } from '../../components/SectionCard';
import { formatCost } from './model-form';
import { modelTexts } from './texts';

/** A right-aligned figure of the row, named by its column. */
function NumberCell({ column, children }: { column: string; children: ReactNode }) {
  return (
    <TableCell className="text-right tabular-nums" data-column={column}>
      {children}
    </TableCell>
  );
}

/** Model, Messages, Tokens Used, Total Spent, Sentiment Score (green/red), CAAS (always TBD). */
export function ModelUsageTable({ stats }: { stats: readonly ModelUsage[] }) {
  return (
    <SectionCard
      title="Model Usage"
      description={`The last ${MODEL_USAGE_DAYS} days. Sentiment Score: how gardeners answered each model's replies, from -1 to 1.`}
      testId="model-usage"
    >
      {stats.length === 0 ? (
        <p className="py-6 text-center text-sm text-muted-foreground" data-testid="model-usage-empty">
          {modelTexts.noUsage}
        </p>
      ) : (
        <DataTable
          headRowClassName="hover:bg-transparent"
          headings={[
            'Model',
            ...['Messages', 'Tokens Used', 'Total Spent', 'Sentiment Score', 'CAAS'].map(right),
          ]}
        >
          {stats.map((row) => (
            <TableRow key={row.modelName} data-testid="model-usage-row" data-model={row.modelName}>
              <TableCell className="font-medium whitespace-nowrap">{row.modelName}</TableCell>
              <NumberCell column="totalMessages">{formatNumber(row.totalMessages)}</NumberCell>
              <NumberCell column="totalTokensUsed">{formatNumber(row.totalTokensUsed)}</NumberCell>
              <NumberCell column="totalCost">{formatCost(row.totalCost)}</NumberCell>
              <TableCell
                data-column="avgSentiment"
                data-tone={row.avgSentiment > 0 ? 'positive' : row.avgSentiment < 0 ? 'negative' : 'neutral'}
                className={cn(
                  'text-right font-medium tabular-nums',
                  row.avgSentiment > 0 && 'text-emerald-700',
                  row.avgSentiment < 0 && 'text-destructive',
                )}
              >
                {row.avgSentiment > 0 ? '+' : ''}
                {row.avgSentiment.toFixed(2)}
              </TableCell>
              <TableCell className="text-right text-muted-foreground" data-column="caas">
                {modelTexts.caas}
              </TableCell>
            </TableRow>
          ))}
        </DataTable>
      )}
    </SectionCard>
  );
}
