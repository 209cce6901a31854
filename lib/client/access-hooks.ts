"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PlaybackPolicy, SigningKey, SigningKeyCreated, SigningKeyPatch } from "@/lib/access/schema";
import { call } from "@/lib/api/client";
import { operations } from "@/lib/api/operations";

export type { PlaybackPolicy, SigningKey, SigningKeyCreated };

const keys = {
  signingKeys: ["signing-keys"] as const,
};

/** The user's signing keys for viewer tokens (`lastSeen` moves as viewers use them). */
export function useSigningKeys() {
  return useQuery({ queryKey: keys.signingKeys, queryFn: () => call(operations.listSigningKeys) });
}

/** The private key comes back from this call only. */
export function useCreateSigningKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string | undefined) => call(operations.createSigningKey, { body: name ? { name } : {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.signingKeys }),
  });
}

export function useUpdateSigningKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: SigningKeyPatch }) => call(operations.updateSigningKey, { params: { id }, body: patch }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.signingKeys }),
  });
}

export function useDeleteSigningKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(operations.deleteSigningKey, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.signingKeys }),
  });
}

/** What a playback policy is called on screen. */
export const POLICY_LABELS: Record<PlaybackPolicy["type"], string> = {
  public: "Public",
  jwt: "Signed JWT",
  webhook: "Webhook",
};

/** An object's policy as the API gives it: absent means public. */
export const policyOf = (object: { playbackPolicy?: PlaybackPolicy | null }): PlaybackPolicy => object.playbackPolicy ?? { type: "public" };
