import { CardDescription } from '@sprout/ui';
import {
  Building2,
  Camera,
  CalendarDays,
  Droplets,
  Flower2,
  House,
  MapPin,
  Scissors,
  Sprout,
} from 'lucide-react';
import { PageLayout } from '../components/PageLayout';
import { IconCard, PageSection } from '../components/Sections';
import { SampleConversation } from '../components/SampleConversation';
import { WaitlistForm } from '../components/WaitlistForm';

const features = [
  {
    icon: MapPin,
    title: 'Advice for your garden',
    description:
      'Sprout knows your zip code, hardiness zone and frost dates, so planting plans fit your climate instead of a generic calendar.',
  },
  {
    icon: Camera,
    title: 'Diagnose plant problems',
    description:
      'Describe the trouble or text a photo. Spot pests, disease and nutrient problems early, with clear next steps.',
  },
  {
    icon: Droplets,
    title: 'Care that keeps going',
    description:
      'Watering, pruning and seasonal maintenance reminders for the plants you actually grow, answered any time.',
  },
];

const useCases = [
  {
    icon: Sprout,
    title: 'First-time growers',
    text: 'What to plant, when, and how deep: step by step, without jargon.',
  },
  {
    icon: Building2,
    title: 'Balcony and container gardens',
    text: 'Pick the right pots, soil and plants for small sunny spaces.',
  },
  {
    icon: CalendarDays,
    title: 'Vegetable planning',
    text: 'Sowing dates, succession planting and crop rotation for your season.',
  },
  {
    icon: Flower2,
    title: 'Flowers and perennials',
    text: 'Species care, dividing, deadheading and overwintering.',
  },
  { icon: Scissors, title: 'Trees and shrubs', text: 'When and how to prune, feed and protect from frost.' },
  { icon: House, title: 'Houseplants', text: 'Light, watering and repotting advice for plants indoors.' },
];

export function LandingPage() {
  return (
    <PageLayout title="Sprout: gardening advice by text message">
      <section className="bg-gradient-to-b from-secondary/70 to-background">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-12 sm:px-6 md:py-20 lg:grid-cols-2">
          <div className="flex flex-col gap-8">
            <div className="flex flex-col gap-4">
              <p className="w-fit rounded-full bg-secondary px-3 py-1 text-sm font-medium text-secondary-foreground">
                Private beta · by text message
              </p>
              <h1 className="text-4xl font-bold tracking-tight text-brand-dark sm:text-5xl">
                Your personal gardening expert, one text away
              </h1>
              <p className="max-w-xl text-lg text-muted-foreground">
                Text Sprout a question or a photo and get advice made for your garden: what to plant, what is
                wrong with your tomatoes, and when to water. No app, no account, just SMS.
              </p>
            </div>
            <div className="rounded-xl border border-border bg-card p-5 shadow-sm sm:p-6">
              <WaitlistForm />
            </div>
          </div>
          <SampleConversation />
        </div>
      </section>

      <PageSection titleId="features-title" title="Everything your garden needs to know">
        <p className="mx-auto mt-3 max-w-2xl text-center text-muted-foreground">
          Planning, plant-health diagnosis, species care, watering and maintenance, from one number.
        </p>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {features.map(({ icon: Icon, title, description }) => (
            <IconCard
              key={title}
              title={title}
              icon={
                <span className="flex size-11 items-center justify-center rounded-lg bg-secondary text-secondary-foreground">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
              }
            >
              <CardDescription className="text-base">{description}</CardDescription>
            </IconCard>
          ))}
        </ul>
      </PageSection>

      <PageSection titleId="use-cases-title" title="Made for every kind of gardener" band>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {useCases.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-4 rounded-xl border border-border bg-card p-5">
              <Icon className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </PageSection>
    </PageLayout>
  );
}
