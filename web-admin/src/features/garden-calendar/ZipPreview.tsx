import type { GardenCalendarPreview } from '@sprout/contracts';
import { Button, serverMessage, Table, TableBody, TableCaption, TableCell, TableRow } from '@sprout/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { TableHeadings } from '../../components/DataTable';
import { TextField } from '../../components/FormField';
import { SectionCard } from '../../components/SectionCard';
import { FailureNotice } from '../../components/StatCard';
import { calendarPreviewQuery } from './queries';
import { calendarTexts as t } from './texts';

const calendarDay = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});
const frostDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** 'Mon, Mar 3' of a YYYY-MM-DD calendar date. */
const dayText = (date: string): string => calendarDay.format(new Date(`${date}T00:00:00Z`));

/** 'Mar 14' of an average frost date "03-14"; 'Frost-free' as such. */
const frostText = (monthDay: string | null): string => {
  if (monthDay === null) return '—';
  if (!/^\d{2}-\d{2}$/.test(monthDay)) return 'Frost-free';
  return frostDay.format(new Date(`2001-${monthDay}T00:00:00Z`));
};

/** 'start-indoors' of 'tomato' -> 'Tomato: start indoors'. */
const taskText = (crop: string | null, task: string): string => {
  const words = task.replaceAll('-', ' ');
  if (crop === null) return words.charAt(0).toUpperCase() + words.slice(1);
  return `${crop.charAt(0).toUpperCase()}${crop.slice(1)}: ${words}`;
};

function PreviewFacts({ preview }: { preview: GardenCalendarPreview }) {
  const facts: Array<[string, string, string]> = [
    ['Place', preview.place ?? '—', 'place'],
    ['Hardiness zone', preview.zone ?? '—', 'zone'],
    ['Time zone', preview.timeZone ?? '—', 'time-zone'],
    ['Last spring frost (average)', frostText(preview.lastFrost), 'last-frost'],
    ['First fall frost (average)', frostText(preview.firstFrost), 'first-frost'],
  ];
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-3 lg:grid-cols-5">
      {facts.map(([label, value, id]) => (
        <div key={id}>
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="font-medium" data-testid={`preview-${id}`}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function PreviewTips({ preview }: { preview: GardenCalendarPreview }) {
  if (preview.tips.length === 0) {
    return <p className="text-sm text-muted-foreground">{t.noTipsInPreview}</p>;
  }
  return (
    <Table data-testid="preview-tips">
      <TableCaption className="mt-0 mb-2 caption-top text-left">
        {preview.tips.length} {preview.tips.length === 1 ? 'tip' : 'tips'} from {dayText(preview.from)} to{' '}
        {dayText(preview.until)}, each sent between 9 AM and 8 PM in{' '}
        {preview.timeZone ?? 'the gardener’s time zone'}.
      </TableCaption>
      <TableHeadings
        className="hover:bg-transparent"
        headings={[
          { label: 'Date', className: 'w-32' },
          { label: 'Task', className: 'w-48' },
          'Text sent',
          { label: 'Characters', className: 'w-20 text-right' },
        ]}
      />
      <TableBody>
        {preview.tips.map((tip) => (
          <TableRow key={tip.key} data-testid="preview-tip">
            <TableCell className="whitespace-nowrap" data-testid="preview-tip-date" data-date={tip.date}>
              {dayText(tip.date)}
            </TableCell>
            <TableCell>{taskText(tip.crop, tip.task)}</TableCell>
            <TableCell className="whitespace-pre-line" data-testid="preview-tip-text">
              {tip.text}
            </TableCell>
            <TableCell className="text-right tabular-nums">{tip.text.length}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** A ZIP's next 8 weeks of tips, as the calendar would send them. */
export function ZipPreview() {
  const id = useId();
  const [typed, setTyped] = useState('');
  const [typedFrom, setTypedFrom] = useState('');
  const [asked, setAsked] = useState<{ zip: string; from: string } | null>(null);
  const preview = useQuery({
    ...calendarPreviewQuery(asked?.zip ?? '', asked?.from ?? ''),
    enabled: asked !== null,
  });
  const busy = asked !== null && preview.isFetching;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsked({ zip: typed.trim(), from: typedFrom });
  };

  return (
    <SectionCard title={t.previewTitle} description={t.previewDescription} testId="calendar-preview">
      <div className="space-y-4">
        <form className="flex flex-wrap items-end gap-3" onSubmit={submit}>
          <TextField
            id={id}
            label="ZIP code"
            fieldClassName="flex flex-col gap-1.5"
            value={typed}
            onValueChange={setTyped}
            inputMode="numeric"
            autoComplete="postal-code"
            maxLength={10}
            placeholder="97201"
            className="w-32"
            data-testid="preview-zip"
          />
          <TextField
            id={`${id}-from`}
            label={t.previewFromLabel}
            fieldClassName="flex flex-col gap-1.5"
            type="date"
            value={typedFrom}
            onValueChange={setTypedFrom}
            className="w-40"
            data-testid="preview-from"
          />
          <Button type="submit" disabled={typed.trim() === '' || busy}>
            {busy ? t.previewing : t.previewButton}
          </Button>
        </form>
        {asked !== null &&
          (preview.isError ? (
            <FailureNotice>{serverMessage(preview.error, t.previewFailed)}</FailureNotice>
          ) : preview.data !== undefined ? (
            <div className="space-y-4" data-testid="preview-result">
              <PreviewFacts preview={preview.data} />
              <PreviewTips preview={preview.data} />
            </div>
          ) : null)}
      </div>
    </SectionCard>
  );
}
