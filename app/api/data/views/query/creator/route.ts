import { rowsAnswer } from "@/lib/analytics/csv";
import { viewership } from "@/lib/analytics/query";
import { ApiError } from "@/lib/api/errors";
import { operations } from "@/lib/api/operations";
import { route } from "@/lib/api/route";

export const GET = route(operations.getCreatorViewership, async ({ req, caller, query }) => {
  // As Livepeer's: the content is named, and only one.
  if (Boolean(query.assetId) === Boolean(query.streamId)) throw new ApiError(422, ["give exactly one of assetId or streamId"]);
  return rowsAnswer(req, await viewership(caller.userId, query, false), "views");
});
