/**
 * Frequent English function words and texting shorthand. Used to tell English from other
 * languages in short texts and to keep ordinary words from being read as place names.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against ago all almost also am an and any anyone anything are aren't around as ask at
  away back bad be because been before being below best better between big both but by can can't cannot could
  couldn't did didn't do does doesn't doing don't done down during each early easy else enough even ever every
  few for from get gets getting give go goes going gone good got great had hadn't has hasn't have haven't having
  he help her here hers him his how however i i'd i'll i'm i've if in instead into is isn't it it's its just keep
  know last late least less let like little long look lot lots make many may maybe me might more most much must my
  myself need never new next no none nor not now of off often oh ok okay old on once one only or other our out
  over own please pretty put quite rather really right same see seem seems she should shouldn't since so some
  something soon still such sure take than thank thanks that that's the their them then there there's these they
  they're thing things think this those though through thru to too try trying under until up us use used using
  very want wanted was wasn't way we we're well went were what what's whats when where which while who why will
  with without won't would wouldn't yes yet you you're your yours im ive id dont cant wont didnt doesnt isnt
  wasnt thats whats heres theres u ur r y ya yeah yep nope pls plz thx tho gonna wanna gotta lol idk btw
  hi hello hey thanks morning evening night today tomorrow yesterday week weeks year years day days month
  months time times first second keep keeps started start stop going grow growing grew grown plant planted
  planting plants garden gardening yard water watering`.split(/\s+/),
);
