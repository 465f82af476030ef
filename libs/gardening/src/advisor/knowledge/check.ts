// `node dist/advisor/knowledge/check.js` (the package's build runs it): reads and validates every
// advisor data file and fails with the list of problems, so a bad edit never ships.
import { AdvisorDataError, readAdvisorKnowledge } from './load';

try {
  const knowledge = readAdvisorKnowledge();
  const forms = knowledge.entries.reduce((sum, entry) => sum + entry.examples.length, 0);
  process.stdout.write(
    `advisor data: ${knowledge.files} files, ${knowledge.entries.length} entries (${forms} question forms), ${knowledge.crops.length} crops, ${knowledge.plants.length} plants\n`,
  );
} catch (error) {
  if (!(error instanceof AdvisorDataError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
