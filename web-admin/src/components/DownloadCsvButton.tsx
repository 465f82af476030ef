import { Button } from '@sprout/ui';
import { Download } from 'lucide-react';

/** A plain link to a CSV export: the browser streams it to a file, however large. */
export function DownloadCsvButton({ href, label }: { href: string; label: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <a href={href} download title={label} data-testid="download-csv">
        <Download aria-hidden="true" />
        Download CSV
      </a>
    </Button>
  );
}
