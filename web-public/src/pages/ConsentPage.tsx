import { Button, Card, CardContent, CardHeader, CardTitle } from '@sprout/ui';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageLayout } from '../components/PageLayout';
import { usePublicConfig } from '../hooks/usePublicConfig';

/** One part of the consent terms: a card with its title and paragraphs. */
function ConsentSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-muted-foreground">{children}</CardContent>
    </Card>
  );
}

export default function ConsentPage() {
  const { data: config } = usePublicConfig();

  return (
    <PageLayout title="SMS consent · Sprout">
      <div className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12 sm:px-6 md:py-16">
        <div className="flex flex-col gap-3">
          <h1 className="text-3xl font-bold tracking-tight text-brand-dark sm:text-4xl">SMS consent</h1>
          <p className="text-lg text-muted-foreground">
            By texting Sprout{config?.phoneNumber ? ` at ${config.phoneNumber}` : ''} or joining our beta, you
            agree to receive text messages from Sprout as described below.
          </p>
        </div>

        <ConsentSection title="How we use SMS">
          <p>
            Sprout answers your gardening questions by text message. We send replies to the messages you send
            us, and occasionally a follow-up about your garden such as a seasonal tip or a short survey.
          </p>
          <p>We never sell your phone number or share it with third parties for marketing.</p>
        </ConsentSection>

        <ConsentSection title="Your rights">
          <p>
            <strong className="text-foreground">STOP</strong>: reply STOP at any time to stop receiving
            messages. We will confirm once and then send nothing more unless you text us again.
          </p>
          <p>
            <strong className="text-foreground">HELP</strong>: reply HELP for help and our contact details
            {config?.contactEmail ? (
              <>
                , or email{' '}
                <a
                  className="text-primary underline underline-offset-4"
                  href={`mailto:${config.contactEmail}`}
                >
                  {config.contactEmail}
                </a>
              </>
            ) : null}
            .
          </p>
        </ConsentSection>

        <ConsentSection title="Message rates">
          <p>
            Message and data rates may apply, according to your mobile plan. Sprout itself does not charge for
            messages.
          </p>
          <p>Message frequency varies with how often you text us.</p>
        </ConsentSection>

        <div>
          <Button asChild size="lg">
            <Link to="/">
              <ArrowLeft aria-hidden="true" />
              Return to signup
            </Link>
          </Button>
        </div>
      </div>
    </PageLayout>
  );
}
