"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PlaybackPolicy, SigningKey, SigningKeyCreated, SigningKeyPatch } from "@/lib/access/schema";
import { api } from "./api";

export type { PlaybackPolicy, SigningKey, SigningKeyCreated };

const keys = {
  signingKeys: ["signing-keys"] as const,
};

const enc = encodeURIComponent;

/** The user's signing keys for viewer tokens (`lastSeen` moves as viewers use them). */
export function useSigningKeys() {
  return useQuery({ queryKey: keys.signingKeys, queryFn: () => api<SigningKey[]>("/api/access-control/signing-key") });
}

/** The private key comes back from this call only. */
export function useCreateSigningKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string | undefined) => api<SigningKeyCreated>("/api/access-control/signing-key", "POST", name ? { name } : {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.signingKeys }),
  });
}

export function useUpdateSigningKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: SigningKeyPatch }) => api(`/api/access-control/signing-key/${enc(id)}`, "PATCH", patch),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.signingKeys }),
  });
}

export function useDeleteSigningKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/access-control/signing-key/${enc(id)}`, "DELETE"),
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
