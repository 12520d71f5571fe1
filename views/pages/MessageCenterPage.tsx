import { Island } from "../Island";
import { PageHeading } from "./SimplePages";

/** /d/message-center/{conversationId?}: the conversations and the selected one. */
export function MessageCenterPage({ conversationId }: { conversationId?: number }) {
  return (
    <>
      <PageHeading title="Message Center" />
      <Island name="message-center" props={conversationId === undefined ? {} : { conversationId }} />
    </>
  );
}
