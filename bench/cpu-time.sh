# Sourced by the benchmarks that time commands with /usr/bin/time -f "%U %S %e" -o FILE:
# cpu FILE prints the run's user+sys CPU seconds; median FILE the median of a file of numbers.
cpu() {
    local user sys wall
    read -r user sys wall <"$1"
    echo "$user + $sys" | bc
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
