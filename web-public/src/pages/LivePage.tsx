import { Button, formatPhoneNumber } from '@sprout/ui';
import { Bell, Camera, Leaf, Mail, MessageSquare, Smartphone, Sun, Wifi } from 'lucide-react';
import { PageLayout } from '../components/PageLayout';
import { IconCard, PageSection } from '../components/Sections';
import { usePublicConfig } from '../hooks/usePublicConfig';

const whySms = [
  {
    icon: Smartphone,
    title: 'No app to install',
    text: 'Works on every phone. Save the number and text like you would a friend.',
  },
  {
    icon: Wifi,
    title: 'Works in the garden',
    text: 'Text messages get through with one bar of signal, out by the raised beds.',
  },
  {
    icon: Bell,
    title: 'Answers come to you',
    text: 'Replies arrive as texts, so the advice is there when you need it next.',
  },
];

const useCases = [
  { icon: Camera, text: 'Text a photo of a spotted leaf and ask what is wrong.' },
  { icon: Sun, text: 'Ask what to plant this month in your zip code.' },
  { icon: Leaf, text: 'Get care tips for a plant you just brought home.' },
  { icon: MessageSquare, text: 'Check how often to water in a heat wave.' },
];

const steps = [
  { title: 'Text us', text: 'Send a message to the Sprout number with your gardening question.' },
  {
    title: 'Tell us where you grow',
    text: 'Share your zip code once so advice fits your climate and season.',
  },
  { title: 'Get personal advice', text: 'Sprout replies by text with clear, practical next steps.' },
];

export default function LivePage() {
  const { data: config, isError } = usePublicConfig();
  const phone = config?.phoneNumber;

  return (
    <PageLayout title="Text Sprout: gardening advice by SMS">
      <section className="bg-gradient-to-b from-secondary/70 to-background">
        <div className="mx-auto flex max-w-3xl flex-col items-center gap-6 px-4 py-16 text-center sm:px-6 md:py-24">
          <h1 className="text-4xl font-bold tracking-tight text-brand-dark sm:text-5xl">
            Gardening help is a text away
          </h1>
          <p className="max-w-2xl text-lg text-muted-foreground">
            Sprout is live. Text your question or a photo of your plant and get advice made for your garden.
          </p>
          {phone ? (
            <Button asChild size="lg" className="h-12 px-8 text-base">
              <a href={`sms:${phone}`} data-testid="text-us">
                <MessageSquare aria-hidden="true" />
                Text us at {formatPhoneNumber(phone)}
              </a>
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground" role="status">
              {isError
                ? 'Our number is not available right now. Please try again later.'
                : 'Loading our number...'}
            </p>
          )}
          <p className="text-xs text-muted-foreground">
            Message and data rates may apply. Reply STOP to opt out, HELP for help.
          </p>
        </div>
      </section>

      <PageSection titleId="why-sms-title" title="Why SMS?">
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {whySms.map(({ icon: Icon, title, text }) => (
            <IconCard
              key={title}
              title={title}
              icon={<Icon className="size-7 text-primary" aria-hidden="true" />}
            >
              <p className="text-muted-foreground">{text}</p>
            </IconCard>
          ))}
        </ul>
      </PageSection>

      <PageSection titleId="live-use-cases-title" title="What people text us about" band width="max-w-4xl">
        <ul className="mt-10 grid gap-4 sm:grid-cols-2">
          {useCases.map(({ icon: Icon, text }) => (
            <li key={text} className="flex items-start gap-3 rounded-xl border border-border bg-card p-5">
              <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>{text}</span>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection titleId="how-it-works-title" title="How it works">
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="flex flex-col items-center gap-3 text-center">
              <span className="flex size-12 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground">
                {index + 1}
              </span>
              <h3 className="text-lg font-semibold">{step.title}</h3>
              <p className="text-muted-foreground">{step.text}</p>
            </li>
          ))}
        </ol>
      </PageSection>

      <section aria-labelledby="contact-title" className="border-t border-border">
        <div className="mx-auto flex max-w-3xl flex-col items-center gap-4 px-4 py-16 text-center sm:px-6">
          <h2 id="contact-title" className="text-2xl font-bold tracking-tight text-brand-dark">
            Contact us
          </h2>
          <p className="text-muted-foreground">
            Questions, feedback or partnership ideas? We would love to hear from you.
          </p>
          {config?.contactEmail && (
            <Button asChild variant="outline">
              <a href={`mailto:${config.contactEmail}`} data-testid="contact-us">
                <Mail aria-hidden="true" />
                {config.contactEmail}
              </a>
            </Button>
          )}
        </div>
      </section>
    </PageLayout>
  );
}
