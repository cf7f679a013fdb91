#!/bin/sh
# Fetch an "unseen" MiniZinc set of docs/performance/unseen-models.md from the MiniZinc
# benchmark suite (github.com/MiniZinc/minizinc-benchmarks, MIT licence), instances that are
# NOT in ../shared/data/minizinc, laid out one folder per family as `minizinc_compare --data
# DIR` reads them. Nothing is copied into this repository.
#
# Batch 1 (the default): 60 instances of 52 families (the first 40 lines one instance of 40
# families, the last 20 a second, harder batch added after a first pass).
# Batch 2: 40 instances chosen by a rule written down before any solver ran on them
# (unseen-models.md, "A second stand-in set"): one of each of the 23 families used in
# neither ../shared/data/minizinc nor batch 1 that MiniZinc flattens for cpsolve in 60 s,
# and one more data file of every third family of batch 1; per family the data file at
# the middle of the size order.
# Batch 3: 71 instances by a rule written down before any solver ran on them
# (unseen-models.md, "A third stand-in set"): one of each family of the suite not in
# ../shared/data/minizinc, a data file neither batch 1 nor 2 uses, at three quarters of the
# size order, skipped up the order when MiniZinc does not flatten it for cpsolve in 60 s.
#
#   scripts/fetch-unseen-minizinc.sh DEST                # batch 1, from GitHub (curl)
#   scripts/fetch-unseen-minizinc.sh DEST CLONE          # batch 1, from a local git clone
#   scripts/fetch-unseen-minizinc.sh --batch 2 DEST [CLONE]
#   scripts/fetch-unseen-minizinc.sh --batch 3 DEST [CLONE]
set -eu
COMMIT=26bcd0a78433025f7b6896a6fa8caf128795760b
BASE=https://raw.githubusercontent.com/MiniZinc/minizinc-benchmarks/$COMMIT
BATCH=1
if [ "${1:-}" = "--batch" ]; then
    BATCH=${2:?usage: fetch-unseen-minizinc.sh [--batch 1|2|3] DEST [CLONE]}
    shift 2
fi
DEST=${1:?usage: fetch-unseen-minizinc.sh [--batch 1|2|3] DEST [CLONE]}
CLONE=${2:-}

# family model data (data "-" when the model holds its data)
BATCH1='
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

BATCH2='
alpha alpha.mzn -
crosswords crossword_opt.mzn grid-05.02_dict-55.dzn
eq eq20.mzn -
golfers golfers1.mzn golfers_5_5_6.dzn
groupsplitter group.mzn u6g1pref0.dzn
jobshop2 jobshop.mzn la02.dzn
knights knights.mzn 08_10.dzn
latin-squares latin-squares-fd.mzn 12.dzn
maximum-dag maximum-dag.mzn 25_01.dzn
opt-cryptanalysis mznc2017_aes_opt.mzn r7.dzn
pattern-set-mining pattern_set_mining.mzn kr-vs-kp-k2.dzn
pentominoes pentominoes-int.mzn 05.dzn
proteindesign12 wcsp.mzn 1HZ5.12p.9aa.usingEref_self.dzn
quasigroup7 quasigroup7.mzn 09.dzn
queens queens.mzn 050.dzn
rectangle-packing rect_packing.mzn data_square/rpp25_true.dzn
rel2onto rel2onto.mzn 5_6.dzn
rubik 6-cube.mzn -
schur_numbers schur.mzn 7-3.dzn
search_stress search_stress.mzn 08_04.dzn
steiner-triples steiner-triples.mzn 09.dzn
tdtsp tdtsp.mzn inst_10_58_20.dzn
tents tents.mzn tents_2.dzn
2DBinPacking 2DLevelPacking.mzn class_10/Class10_60_9.dzn
bibd bibd.mzn 06_03_02.dzn
carseq carseq.mzn carseq_set_1/car_57.dzn
cutstock cutstock.mzn type14_TEST6.dzn
elitserien handball.mzn handball17.dzn
flexible-jobshop fjsp.mzn hard19.dzn
golomb golomb.mzn 07.dzn
jobshop jobshop.mzn jobshop_la23.dzn
largescheduling largecumulative.mzn instance-0800-1.dzn
market_split market_split.mzn u4-01.dzn
multi-knapsack mknapsack.mzn mknap2-31.dzn
oocsp_racks oocsp_racks.mzn oocsp_racks_030_mii8.dzn
photo photo.mzn photo2.dzn
rcpsp rcpsp.mzn data_psplib/j60/J60_26_6.dzn
smelt smelt.mzn smelt_3.dzn
sugiyama sugiyama2.mzn g4_7_7_7_7.dzn
tpp tpp.mzn tpp_6_3_30_1.dzn
'

BATCH3='
2DBinPacking 2DLevelPacking.mzn class_2/Class2_100_2.dzn
QCP qcp-20-187-9_ext.mzn -
amaze amaze3.mzn 2012-07-27.dzn
bibd bibd.mzn 09_03_01.dzn
black-hole black-hole.mzn 4.dzn
bus_scheduling bus_scheduling.mzn c1a.dzn
carseq carseq.mzn carseq_set_1/car_40.dzn
city-position city-position.mzn city-7-04.dzn
costas-array CostasArray.mzn 20.dzn
cutstock cutstock.mzn type15_TEST7.dzn
cvrp cvrp.mzn B-n45-k5.vrp.dzn
depot-placement depot_placement.mzn ulysses22_6.dzn
elitserien handball.mzn handball11.dzn
fast-food fastfood.mzn ff6.dzn
fillomino fillomino.mzn 16.dzn
flexible-jobshop fjsp.mzn med10.dzn
gbac gbac.mzn UD2-gbac.dzn
ghoulomb ghoulomb.mzn 4-9-20.dzn
golfers golfers1.mzn golfers_7_7_7.dzn
golomb golomb.mzn 10.dzn
grid-colouring GridColoring.mzn 13_11.dzn
groupsplitter group.mzn u12g1pref1.dzn
is model.mzn y21PnVA2Hj.dzn
jobshop jobshop.mzn jobshop_la36.dzn
jobshop2 jobshop.mzn la05.dzn
kakuro kakuro.mzn kakuro_8_8_hard.dzn
knights knights.mzn 08_12.dzn
langford langford.mzn l_2_06.dzn
largescheduling largecumulative.mzn instance-1600-2.dzn
latin-squares latin-squares-fd.mzn 15.dzn
league league.mzn model70-16-3.dzn
magicseq magicseq.mzn 100.dzn
market_split market_split.mzn s5-05.dzn
maximum-dag maximum-dag.mzn 25_06.dzn
mrcpsp mrcpsp.mzn mm_m4/m4_47_9.dzn
mspsp mspsp.mzn hard_07.dzn
multi-knapsack mknapsack.mzn mknap2-1.dzn
nonogram non.mzn non_fast_10.dzn
on-call-rostering oc-roster.mzn 20s-200d.dzn
oocsp_racks oocsp_racks.mzn oocsp_racks_050_r1.dzn
open_stacks open_stacks_01.mzn wbo_30_15_1.dzn
opt-cryptanalysis mznc2017_aes_opt.mzn r11.dzn
p1f p1f.mzn 12.dzn
pentominoes pentominoes-int.mzn 06.dzn
prize-collecting pc.mzn 28-4-7-4.dzn
proteindesign12 wcsp.mzn 1UBI.13p.9aa.usingEref_self.dzn
quasigroup7 quasigroup7.mzn 12.dzn
queens queens.mzn 100.dzn
radiation radiation.mzn i7-15.dzn
rcpsp rcpsp.mzn data_psplib/j90/J90_46_3.dzn
rcpsp-max rcpsp_max.mzn psp_c_314.dzn
rectangle-packing rect_packing.mzn data_square/rpp15_false.dzn
rel2onto rel2onto.mzn 5_5.dzn
road-cons road_naive.mzn road_20.dzn
rubik 7-cube.mzn -
schur_numbers schur.mzn 5-3.dzn
search_stress search_stress.mzn 04_04.dzn
slow_convergence slow_convergence.mzn 0100.dzn
smelt smelt.mzn smelt_5.dzn
spot5 spot5.mzn 5.dzn
steiner-triples steiner-triples.mzn 15.dzn
still_life still_life.mzn 6x6.dzn
sugiyama sugiyama2.mzn g5_7_7_7_7_2.dzn
talent_scheduling talent_scheduling.mzn medium/film118.dzn
tdtsp tdtsp.mzn inst_20_36_10.dzn
template_design template_design.mzn magazine_inserts_2.dzn
tents tents.mzn tents_1.dzn
tpp tpp.mzn tpp_5_5_30_1.dzn
trucking trucking.mzn 14.dzn
wwtpp-real wwtpp.mzn ex08000_2400_100.dzn
zephyrus zephyrus.mzn 14__8__6__3.dzn
'

case $BATCH in
1) LIST=$BATCH1 ;;
2) LIST=$BATCH2 ;;
3) LIST=$BATCH3 ;;
*) echo "error: --batch $BATCH: there are batches 1, 2 and 3" >&2; exit 2 ;;
esac

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
