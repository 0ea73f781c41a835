//! Annotation and segment hooks: an annotation written or deleted refreshes the site's charts (the time series
//! carries the range's annotations); segments are one list per site.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type AnnotationInput, type SegmentInput, annotationsApi, segmentsApi } from "../api/annotations";
import { keys } from "../api/keys";

function useRefreshCharts(site: number) {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: [...keys.site(site).all, "timeseries"] });
    void client.invalidateQueries({ queryKey: [...keys.site(site).all, "annotations"] });
  };
}

export function useCreateAnnotation(site: number) {
  const refresh = useRefreshCharts(site);
  return useMutation({ mutationFn: (input: AnnotationInput) => annotationsApi.create(site, input), onSuccess: refresh });
}

export function useUpdateAnnotation(site: number) {
  const refresh = useRefreshCharts(site);
  return useMutation({
    mutationFn: ({ id, input }: { id: number; input: AnnotationInput }) => annotationsApi.update(site, id, input),
    onSuccess: refresh,
  });
}

export function useDeleteAnnotation(site: number) {
  const refresh = useRefreshCharts(site);
  return useMutation({ mutationFn: (id: number) => annotationsApi.remove(site, id), onSuccess: refresh });
}

export function useSegments(site: number) {
  return useQuery({ queryKey: keys.site(site).read("segments"), queryFn: () => segmentsApi.list(site) });
}

function useRefreshSegments(site: number) {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: keys.site(site).read("segments") });
}

export function useCreateSegment(site: number) {
  const refresh = useRefreshSegments(site);
  return useMutation({ mutationFn: (input: SegmentInput) => segmentsApi.create(site, input), onSuccess: refresh });
}

export function useDeleteSegment(site: number) {
  const refresh = useRefreshSegments(site);
  return useMutation({ mutationFn: (id: number) => segmentsApi.remove(site, id), onSuccess: refresh });
}
