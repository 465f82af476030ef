import { Label, Switch } from '@sprout/ui';
import { useId } from 'react';
import { useTestDataMode } from '../test-data-mode';

export function TestDataModeSwitch() {
  const { showTestData, setShowTestData } = useTestDataMode();
  const id = useId();
  return (
    <div className="rounded-lg border border-border bg-card p-3">
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor={id}>Test Data Mode</Label>
        <Switch
          id={id}
          checked={showTestData}
          onCheckedChange={setShowTestData}
          aria-describedby={`${id}-state`}
          data-testid={id}
        />
      </div>
      <p id={`${id}-state`} className="mt-1.5 text-xs text-muted-foreground">
        {showTestData ? 'Showing test user data' : 'Showing real user data'}
      </p>
    </div>
  );
}
