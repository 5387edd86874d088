"""One process of tests/test_distributed.py's group: joins a two-process ``gloo`` group on
localhost, scores its shard of the corpus with bleuprint.distributed, and prints the results
as JSON. Arguments: rank, world size, port, corpus file (JSON), presets (comma-separated)."""

import json
import sys
from datetime import timedelta

import torch.distributed as dist

from bleuprint import BLEUScore
from bleuprint.distributed import BLEUMetric, synced


def main() -> None:
    rank, world, port = (int(value) for value in sys.argv[1:4])
    with open(sys.argv[4], encoding="utf-8") as handle:
        hypotheses, references = json.load(handle)
    dist.init_process_group(
        "gloo",
        init_method=f"tcp://127.0.0.1:{port}",
        rank=rank,
        world_size=world,
        timeout=timedelta(seconds=60),
    )
    # Contiguous shards in rank order, unequal in size; batches of 7 segments.
    bounds = [len(hypotheses) * share // (world + 1) for share in range(world)] + [len(hypotheses)]
    start, end = bounds[rank], bounds[rank + 1]
    results = {}
    for name in sys.argv[5].split(","):
        engine = getattr(BLEUScore, name)()
        metric, accumulator = BLEUMetric(engine), engine.accumulator()
        for batch in range(start, end, 7):
            last = min(batch + 7, end)
            metric.update(hypotheses[batch:last], references[batch:last])
            accumulator.update(hypotheses[batch:last], references[batch:last])
        results[name] = {
            "metric": float(metric.compute()),
            "synced": synced(accumulator).compute().score,
            "segments": metric.result().stats.segments,
        }
    dist.destroy_process_group()
    print(json.dumps(results))


if __name__ == "__main__":
    main()
