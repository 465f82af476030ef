import { MODEL_USAGE_DAYS, type ModelUsage } from '@sprout/contracts';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  cn,
  formatNumber,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@sprout/ui';
import { formatCost } from './model-form';
import { modelTexts } from './texts';

/** Model, Messages, Tokens Used, Total Spent, Sentiment Score (green/red), CAAS (always TBD). */
export function ModelUsageTable({ stats }: { stats: readonly ModelUsage[] }) {
  return (
    <Card data-testid="model-usage">
      <CardHeader>
        <CardTitle asChild>
          <h2>Model Usage</h2>
        </CardTitle>
        <CardDescription>
          The last {MODEL_USAGE_DAYS} days. Sentiment Score: how gardeners answered each model&apos;s replies,
          from -1 to 1.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {stats.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground" data-testid="model-usage-empty">
            {modelTexts.noUsage}
          </p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>Model</TableHead>
                <TableHead className="text-right">Messages</TableHead>
                <TableHead className="text-right">Tokens Used</TableHead>
                <TableHead className="text-right">Total Spent</TableHead>
                <TableHead className="text-right">Sentiment Score</TableHead>
                <TableHead className="text-right">CAAS</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {stats.map((row) => (
                <TableRow key={row.modelName} data-testid="model-usage-row" data-model={row.modelName}>
                  <TableCell className="font-medium whitespace-nowrap">{row.modelName}</TableCell>
                  <TableCell className="text-right tabular-nums" data-column="totalMessages">
                    {formatNumber(row.totalMessages)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums" data-column="totalTokensUsed">
                    {formatNumber(row.totalTokensUsed)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums" data-column="totalCost">
                    {formatCost(row.totalCost)}
                  </TableCell>
                  <TableCell
                    data-column="avgSentiment"
                    data-tone={
                      row.avgSentiment > 0 ? 'positive' : row.avgSentiment < 0 ? 'negative' : 'neutral'
                    }
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
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
