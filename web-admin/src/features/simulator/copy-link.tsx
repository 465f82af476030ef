import { toast } from '@sprout/ui';
import { mobileChatPath, simulatorTexts } from './texts';

/** Copies a test user's mobile chat URL; when the clipboard refuses, the toast shows it to copy by hand. */
export async function copyMobileChatLink(userId: string, userName: string): Promise<void> {
  const url = new URL(mobileChatPath(userId), window.location.origin).toString();
  try {
    if (!navigator.clipboard) throw new Error('No clipboard');
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link Copied', description: `Mobile chat link for ${userName} copied to the clipboard.` });
  } catch {
    toast({
      variant: 'destructive',
      title: simulatorTexts.copyFailed,
      description: (
        <>
          Copy this link by hand:{' '}
          <span className="font-mono break-all select-all" data-testid="mobile-chat-url">
            {url}
          </span>
        </>
      ),
    });
  }
}
