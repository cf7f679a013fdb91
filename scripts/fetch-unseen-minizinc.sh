#!/bin/sh
# Fetch the "unseen" MiniZinc set of docs/performance/unseen-models.md: 60 instances of
# 52 families (the first 40 lines a first batch, the last 20 a second, harder one) of the MiniZinc benchmark suite (github.com/MiniZinc/minizinc-benchmarks,
# MIT licence) that are NOT in ../shared/data/minizinc, laid out one folder per family as
# `minizinc_compare --data DIR` reads them. Nothing is copied into this repository.
#
#   scripts/fetch-unseen-minizinc.sh DEST            # download from GitHub (curl)
#   scripts/fetch-unseen-minizinc.sh DEST CLONE      # copy from a local git clone instead
set -eu
COMMIT=26bcd0a78433025f7b6896a6fa8caf128795760b
BASE=https://raw.githubusercontent.com/MiniZinc/minizinc-benchmarks/$COMMIT
DEST=${1:?usage: fetch-unseen-minizinc.sh DEST [CLONE]}
CLONE=${2:-}

# family model data (data "-" when the model holds its data)
LIST='
2DBinPacking 2DPacking.mzn class_1/Class1_20_4.dzn
bibd bibd.mzn 08_04_03.dzn
black-hole black-hole.mzn 0.dzn
bus_scheduling bus_scheduling.mzn t1.dzn
carseq carseq.mzn carseq_set_1/car_11.dzn
city-position city-position.mzn city-5-05.dzn
costas-array CostasArray.mzn 16.dzn
cutstock cutstock.mzn type01_TEST8.dzn
cvrp cvrp.mzn simple2.dzn
depot-placement depot_placement.mzn rat99_4.dzn
fast-food fastfood.mzn ff35.dzn
fillomino fillomino.mzn 08.dzn
flexible-jobshop fjsp.mzn easy01.dzn
ghoulomb ghoulomb.mzn 3-4-6.dzn
golomb golomb.mzn 09.dzn
grid-colouring GridColoring.mzn 5_6.dzn
jobshop jobshop.mzn jobshop_la04.dzn
kakuro kakuro.mzn kakuro_8_8_easy.dzn
langford langford.mzn l_3_09.dzn
largescheduling largecumulative.mzn instance-0100-1.dzn
league league.mzn model20-3-5.dzn
magicseq magicseq.mzn 030.dzn
market_split market_split.mzn u3-01.dzn
mrcpsp mrcpsp.mzn mm_n0/n0_1_6.dzn
mspsp mspsp.mzn easy_05.dzn
multi-knapsack mknapsack.mzn mknap1-6.dzn
nonogram non.mzn dom_06.dzn
on-call-rostering oc-roster.mzn 4s-10d.dzn
oocsp_racks oocsp_racks.mzn oocsp_racks_030_f7_cc.dzn
open_stacks open_stacks_01.mzn problem_10_10_1.dzn
p1f p1f.mzn 8.dzn
photo photo.mzn photo1.dzn
prize-collecting pc.mzn 15-3-5-1.dzn
radiation radiation.mzn 01.dzn
rcpsp-max rcpsp_max.mzn psp_j10_33.dzn
rcpsp rcpsp.mzn data_pack/pack007.dzn
road-cons road_naive.mzn road_8.dzn
sugiyama sugiyama2.mzn g3_7_7_7.dzn
talent_scheduling talent_scheduling.mzn easy/concert.dzn
tpp tpp.mzn tpp_3_3_20_1.dzn
amaze amaze3.mzn 2012-06-28.dzn
elitserien handball.mzn handball7.dzn
gbac gbac.mzn reduced_UD4-gbac.dzn
QCP qcp-15-120-0_ext.mzn -
spot5 spot5.mzn 54.dzn
still_life still_life.mzn 8x8.dzn
template_design template_design.mzn catfood_2.dzn
trucking trucking.mzn 01.dzn
wwtpp-real wwtpp.mzn ex07780_2400_100.dzn
zephyrus zephyrus.mzn 12__6__6__3.dzn
smelt smelt.mzn smelt_2.dzn
is model.mzn jZ9pQqRxJ2.dzn
city-position city-position.mzn city-5-06.dzn
rcpsp-max rcpsp_max.mzn psp_j20_34.dzn
mspsp mspsp.mzn medium_01.dzn
talent_scheduling talent_scheduling.mzn medium/film119.dzn
tpp tpp.mzn tpp_4_3_20_1.dzn
flexible-jobshop fjsp.mzn easy02.dzn
cvrp cvrp.mzn P-n16-k8.vrp.dzn
depot-placement depot_placement.mzn a280_5.dzn
'

get() { # get PATH-IN-SUITE OUTFILE
    mkdir -p "$(dirname "$2")"
    if [ -n "$CLONE" ]; then
        git -C "$CLONE" show "$COMMIT:$1" > "$2"
    else
        curl -fsSL "$BASE/$1" -o "$2"
    fi
}

echo "$LIST" | while read -r family model data; do
    [ -n "$family" ] || continue
    get "$family/$model" "$DEST/$family/$model"
    [ "$data" = "-" ] || get "$family/$data" "$DEST/$family/$(basename "$data")"
done
get LICENSE "$DEST/LICENSE"
echo "fetched $(echo "$LIST" | grep -c .) instances into $DEST"
