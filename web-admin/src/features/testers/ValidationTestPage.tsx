import type { ValidateMessageResponse } from '@sprout/contracts';
import { serverMessage } from '@sprout/ui';
import { ShieldCheck } from 'lucide-react';
import { api } from '@sprout/contracts';
import { endpointMutation } from '@sprout/ui';
import { useMutation } from '@tanstack/react-query';
import { testerTexts, VALIDATION_EXAMPLES } from './tester-texts';
import { TesterPage, type TesterSpec } from './TesterPage';
import { ValidationDetails } from './ValidationDetails';

function ValidationResults({ response, message }: { response: ValidateMessageResponse; message: string }) {
  return (
    <div className="flex flex-col gap-3" data-testid="validation-result">
      <p className="text-sm break-words text-muted-foreground">
        Tested: <span className="text-foreground">“{message}”</span>
      </p>
      <ValidationDetails result={response.validation} validatedAt={response.timestamp} />
    </div>
  );
}

const VALIDATION_TESTER: TesterSpec<'zip_code' | 'region' | 'hardiness_zone'> = {
  title: 'Message Validation',
  description: 'Check how Sprout judges an incoming message before it answers.',
  formDescription: 'Validate a message as if a gardener had texted it.',
  testIdPrefix: 'validation',
  messageLabel: 'Message',
  legend: (
    <>
      User context <span className="font-normal text-muted-foreground">(optional)</span>
    </>
  ),
  columns: 'sm:grid-cols-3',
  fields: [
    { key: 'zip_code', label: 'Zip code', placeholder: '97214' },
    { key: 'region', label: 'Region', placeholder: 'Pacific Northwest' },
    { key: 'hardiness_zone', label: 'Hardiness zone', placeholder: '8b' },
  ],
  submit: { icon: ShieldCheck, label: 'Validate Message', pendingLabel: 'Validating...' },
  resultsTitle: 'Validation results',
  idleText: 'Results appear here after a validation.',
  examples: VALIDATION_EXAMPLES,
  initialContext: { zip_code: '', region: '', hardiness_zone: '' },
};

/** Message validation tester: how Sprout judges an incoming message before it answers. */
export default function ValidationTestPage() {
  const validation = useMutation(
    endpointMutation(api.testers.validate, { failureMessage: 'Failed to validate message' }),
  );
  return (
    <TesterPage
      spec={VALIDATION_TESTER}
      test={validation}
      results={
        validation.isError ? (
          <div
            role="alert"
            className="rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm text-destructive"
            data-testid="validation-error"
          >
            <p className="font-medium">{testerTexts.validationError(validation.error)}</p>
            {serverMessage(validation.error, '') && (
              <p className="mt-1">{serverMessage(validation.error, '')}</p>
            )}
          </div>
        ) : validation.isSuccess ? (
          <ValidationResults response={validation.data} message={validation.variables.body.message} />
        ) : null
      }
    />
  );
}
